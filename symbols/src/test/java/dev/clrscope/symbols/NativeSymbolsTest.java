package dev.clrscope.symbols;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import net.fornwall.jelf.ElfFile;
import net.fornwall.jelf.ElfSegment;
import net.fornwall.jelf.ElfSymbol;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Native names from the real libcoreclr.so of the installed runtime. */
class NativeSymbolsTest {
  @TempDir Path dir;

  /** The libcoreclr.so of the newest Microsoft.NETCore.App that {@code dotnet} lists. */
  static Path libcoreclr() throws Exception {
    Process p = new ProcessBuilder("dotnet", "--list-runtimes").redirectErrorStream(true).start();
    Path found = null;
    try (BufferedReader r =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
      String line;
      while ((line = r.readLine()) != null) {
        // Microsoft.NETCore.App 10.0.12 [/usr/share/dotnet/shared/Microsoft.NETCore.App]
        if (line.startsWith("Microsoft.NETCore.App ")) {
          String[] f = line.split(" ", 3);
          Path dir = Path.of(f[2].substring(1, f[2].length() - 1), f[1]);
          found = dir.resolve("libcoreclr.so");
        }
      }
    }
    p.waitFor();
    assertThat(found).as("dotnet --list-runtimes names a Microsoft.NETCore.App").isNotNull();
    assertThat(Files.isRegularFile(found)).isTrue();
    return found;
  }

  /**
   * Maps the file as the loader does (each PT_LOAD at base + vaddr, from its file offset, both
   * page-aligned), and expects an address inside coreclr_initialize to name it.
   */
  @Test
  void anAddressInsideLibcoreclrResolvesToItsSymbol() throws Exception {
    Path lib = libcoreclr();
    ElfFile elf = ElfFile.from(lib);
    ElfSymbol sym = elf.getELFSymbol("coreclr_initialize");
    assertThat(sym).isNotNull();
    long base = 0x7f12_3400_0000L;
    StringBuilder maps = new StringBuilder();
    ElfSegment text = null;
    for (int i = 0; i < elf.e_phnum; i++) {
      ElfSegment s = elf.getProgramHeader(i);
      if (s.p_type != ElfSegment.PT_LOAD) {
        continue;
      }
      long start = base + (s.p_vaddr & ~0xfffL);
      long end = (base + s.p_vaddr + s.p_memsz + 0xfff) & ~0xfffL;
      maps.append(
          String.format(
              "%x-%x r-xp %08x 08:01 1234   %s%n", start, end, s.p_offset & ~0xfffL, lib));
      if (sym.st_value >= s.p_vaddr && sym.st_value < s.p_vaddr + s.p_memsz) {
        text = s;
      }
    }
    assertThat(text).isNotNull();
    maps.append("7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0   [stack]\n");
    ProcessMaps pm = ProcessMaps.parse(maps.toString());
    long ip = base + sym.st_value + Math.min(4, sym.st_size - 1);
    assertThat(pm.nameOrNull(ip)).isEqualTo("libcoreclr.so!coreclr_initialize");
    assertThat(ElfSymbols.read(lib).size()).isPositive();

    // Inside the library but in no symbol: the module and the address.
    long first = base + 0x10; // the ELF header's page: no function there
    assertThat(pm.nameOrNull(first)).isEqualTo("libcoreclr.so!0x" + Long.toHexString(first));
    // The stack and unmapped memory: no module.
    assertThat(pm.nameOrNull(0x7ffd00000010L)).isNull();
    FrameResolver f = new FrameResolver(new ManagedCodeMap(), null, pm, false);
    assertThat(f.name(0x1234L)).isEqualTo("0x1234");
    assertThat(f.name(ip)).isEqualTo("libcoreclr.so!coreclr_initialize");
  }

  @Test
  void notElfHasNoSymbols() throws Exception {
    Path junk = dir.resolve("junk.so");
    Files.writeString(junk, "not an ELF file at all");
    assertThat(ElfSymbols.read(junk).size()).isZero();
    assertThat(ElfSymbols.read(dir.resolve("missing.so")).size()).isZero();
  }

  @Test
  void perfMapAndOrderOfSources() throws Exception {
    Path map = dir.resolve("perf-1.map");
    Files.writeString(
        map,
        "7f0000001000 40 [OptimizedTier1] App.Hot::Spin()\n"
            + "garbage line\n"
            + "0x7f0000002000 0x10 stub<1> PrecodeFixupThunk\n");
    PerfMap perf = PerfMap.read(map);
    assertThat(perf.size()).isEqualTo(2);
    ManagedCodeMap managed = new ManagedCodeMap();
    managed.add(0x7f0000001000L, 0x40, "App.Hot", "Spin", "void  ()");
    FrameResolver f = new FrameResolver(managed, perf, ProcessMaps.empty(), true);
    // The method events win over the perf map; the perf map names what they do not.
    assertThat(f.name(0x7f0000001010L)).isEqualTo("App.Hot.Spin()");
    assertThat(f.name(0x7f0000002004L)).isEqualTo("stub<1> PrecodeFixupThunk");
    assertThat(f.name(0x7f0000003000L)).isEqualTo("0x7f0000003000");
    // One id per distinct name, stable.
    assertThat(f.frameId(0x7f0000001010L)).isEqualTo(f.frameId(0x7f0000001020L));
    assertThat(f.frameId(0x7f0000002004L)).isNotEqualTo(f.frameId(0x7f0000001010L));
  }
}
