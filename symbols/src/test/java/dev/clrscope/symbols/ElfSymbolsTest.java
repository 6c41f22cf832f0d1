package dev.clrscope.symbols;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A stripped library whose local functions are named only by its {@code .gnu_debuglink} file. */
class ElfSymbolsTest {
  private static final String DIR = "/dev/clrscope/symbols/debuglink/";

  @TempDir Path dir;

  private Path copy(String name, Path to) throws Exception {
    Files.createDirectories(to.getParent());
    try (var in = ElfSymbolsTest.class.getResourceAsStream(DIR + name)) {
      Files.copy(in, to);
    }
    return to;
  }

  @Test
  void theDebugFileBesideTheLibraryNamesItsLocalFunctions() throws Exception {
    Path lib = copy("libwidget.so", dir.resolve("libwidget.so"));
    copy("libwidget.so.dbg", dir.resolve("libwidget.so.dbg"));
    ElfSymbols s = ElfSymbols.read(lib);
    assertThat(s.nameAtOffset(0x10f9)).isEqualTo("helper_hidden");
    assertThat(s.nameAtOffset(0x10f9 + 12)).isEqualTo("helper_hidden");
    assertThat(s.nameAtOffset(0x1106 + 4)).isEqualTo("widget_exported");
    assertThat(s.nameAtOffset(0x1106 + 9)).isNull();
  }

  @Test
  void theDebugFileInDotDebugIsFoundToo() throws Exception {
    Path lib = copy("libwidget.so", dir.resolve("libwidget.so"));
    copy("libwidget.so.dbg", dir.resolve(".debug/libwidget.so.dbg"));
    assertThat(ElfSymbols.read(lib).nameAtOffset(0x10fa)).isEqualTo("helper_hidden");
  }

  @Test
  void withoutTheDebugFileOnlyTheExportedFunctionIsNamed() throws Exception {
    Path lib = copy("libwidget.so", dir.resolve("libwidget.so"));
    ElfSymbols s = ElfSymbols.read(lib);
    assertThat(s.nameAtOffset(0x10fa)).isNull();
    assertThat(s.nameAtOffset(0x1107)).isEqualTo("widget_exported");
    // Mapped at 0x7f0000000000 (text segment at file offset 0x1000): module and symbol, or
    // module and address.
    ProcessMaps maps =
        ProcessMaps.parse(
            "7f0000000000-7f0000001000 r--p 00000000 08:01 7 "
                + lib
                + "\n"
                + "7f0000001000-7f0000002000 r-xp 00001000 08:01 7 "
                + lib
                + "\n");
    assertThat(maps.nameOrNull(0x7f0000001107L)).isEqualTo("libwidget.so!widget_exported");
    assertThat(maps.nameOrNull(0x7f00000010faL)).isEqualTo("libwidget.so!0x7f00000010fa");
  }

  /**
   * A library whose headers claim more than it holds (its {@code .symtab}'s size patched to a
   * terabyte) is skipped with a reason, in no time and no memory: jelf would size an array from the
   * claim.
   */
  @Test
  void aLibraryWhoseSymbolTableClaimsATerabyteIsSkippedWithAReason() throws Exception {
    Path lib = copy("libwidget.so", dir.resolve("libwidget.so"));
    java.nio.ByteBuffer b =
        java.nio.ByteBuffer.wrap(Files.readAllBytes(lib)).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    long shoff = b.getLong(0x28);
    int shnum = Short.toUnsignedInt(b.getShort(0x3C));
    boolean patched = false;
    for (int i = 0; i < shnum; i++) {
      int at = (int) (shoff + 64L * i);
      if (b.getInt(at + 4) == 2 || b.getInt(at + 4) == 11) {
        b.putLong(at + 0x20, 1L << 40);
        patched = true;
      }
    }
    assertThat(patched).isTrue();
    Files.write(lib, b.array());

    ElfSymbols s = ElfSymbols.read(lib);

    assertThat(s.size()).isZero();
    assertThat(s.problem())
        .startsWith(lib + ": its section ")
        .contains(" claim 1,099,511,627,776 bytes at offset ")
        .endsWith(" bytes");
  }

  @Test
  void aFifoOrAMissingLibraryIsNotOpened() throws Exception {
    Path fifo = dir.resolve("libfifo.so");
    assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
    ElfSymbols s = ElfSymbols.read(fifo);
    assertThat(s.size()).isZero();
    assertThat(s.problem()).isEqualTo(fifo + ": it is a FIFO, not a regular file");
    // A library of another machine: its module's name only, without a word.
    assertThat(ElfSymbols.read(dir.resolve("gone.so")).problem()).isNull();
    // A managed assembly the runtime maps: not ELF, no word either.
    Path dll = dir.resolve("App.dll");
    Files.write(dll, new byte[] {'M', 'Z', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0});
    assertThat(ElfSymbols.read(dll).problem()).isNull();
  }
}
