package dev.clrscope.dac;

import dev.clrscope.dac.source.ElfImage;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;

/**
 * A file about to be loaded as the DAC, checked first: loading a library runs its code (its
 * constructors, then its PAL), so a file that is not a DAC, or is the DAC of another runtime build,
 * is never handed to the C loader. It must be an x86-64 ELF shared library that exports {@code
 * CLRDataCreateInstance}, and the runtime version it carries (the {@code @(#)Version ... @Commit:
 * ...} text every runtime binary has, the same in {@code libcoreclr.so} and {@code
 * libmscordaccore.so} of one build) must be the target runtime's.
 */
public final class DacFile {
  /** The DAC's entry point, which every DAC exports. */
  static final String ENTRY = "CLRDataCreateInstance";

  private static final int EM_X86_64 = 62;
  private static final int ET_DYN = 3;
  private static final int SHT_DYNSYM = 11;
  private static final int MAX_SECTIONS = 1 << 16;

  /** A DAC's symbol and string tables are tens of kilobytes; a larger claim is damage. */
  private static final long MAX_TABLE = 16L << 20;

  private static final Map<Integer, String> MACHINES =
      Map.of(3, "x86", 40, "ARM", 183, "ARM64", 243, "RISC-V", 258, "LoongArch", 8, "MIPS");

  private DacFile() {}

  /**
   * Why {@code file} must not be loaded as the DAC of the runtime whose version text is {@code
   * runtimeVersion} (null when the target's version could not be read: then only that it is a DAC):
   * null when it may, else the phrase that follows the file's name in a message ({@code is not a
   * DAC: it is not an ELF file}, {@code is the DAC of runtime 8.0.3126.42015 (commit 1219a42122cf),
   * not of the target's runtime 10.0.1226.42308 (commit 95017c711e6a)}).
   */
  public static String problem(Path file, String runtimeVersion) {
    if (!Files.isRegularFile(file)) {
      return "is not a regular file";
    }
    try (FileChannel f = FileChannel.open(file, StandardOpenOption.READ)) {
      String notDac = notADac(f);
      if (notDac != null) {
        return "is not a DAC: " + notDac;
      }
    } catch (IOException e) {
      return "cannot be read: " + (e.getMessage() == null ? e.toString() : e.getMessage());
    }
    String version = ElfImage.versionInFile(file);
    if (runtimeVersion == null) {
      return null;
    }
    if (version == null) {
      return "carries no runtime version (no @(#)Version text) to compare with the target's runtime "
          + describe(runtimeVersion);
    }
    if (!sameBuild(version, runtimeVersion)) {
      return "is the DAC of runtime "
          + describe(version)
          + ", not of the target's runtime "
          + describe(runtimeVersion);
    }
    return null;
  }

  /**
   * A version text as a person reads it: {@code 10.0.1226.42308 (commit 95017c711e6a)} for {@code
   * 10.0.1226.42308 @Commit: 95017c711e6a...}.
   */
  public static String describe(String versionText) {
    String[] v = split(versionText);
    return v[1] == null
        ? v[0]
        : v[0] + " (commit " + v[1].substring(0, Math.min(12, v[1].length())) + ")";
  }

  /**
   * Whether two version texts name one build: the same version, and the same commit when both say.
   */
  static boolean sameBuild(String a, String b) {
    String[] x = split(a);
    String[] y = split(b);
    return x[0].equals(y[0]) && (x[1] == null || y[1] == null || x[1].equals(y[1]));
  }

  private static String[] split(String text) {
    int at = text.indexOf("@Commit:");
    String version = (at < 0 ? text : text.substring(0, at)).strip();
    String commit = at < 0 ? null : text.substring(at + "@Commit:".length()).strip();
    return new String[] {version, commit == null || commit.isEmpty() ? null : commit};
  }

  /** Why the open file is no DAC, or null. */
  private static String notADac(FileChannel f) throws IOException {
    ByteBuffer h = read(f, 0, 64);
    if (h == null || h.get(0) != 0x7f || h.get(1) != 'E' || h.get(2) != 'L' || h.get(3) != 'F') {
      return "it is not an ELF file";
    }
    int machine = Short.toUnsignedInt(h.getShort(18));
    if (h.get(4) != 2 || h.get(5) != 1 || machine != EM_X86_64) {
      return "it is an ELF file for "
          + MACHINES.getOrDefault(machine, "machine " + machine)
          + (h.get(4) == 1 ? " (32-bit)" : "")
          + ", not for x86-64";
    }
    if (Short.toUnsignedInt(h.getShort(16)) != ET_DYN) {
      return "it is not a shared library";
    }
    return exports(f, h, ENTRY) ? null : "it exports no " + ENTRY;
  }

  /** Whether the dynamic symbol table defines {@code name}; false when it cannot be read. */
  private static boolean exports(FileChannel f, ByteBuffer h, String name) throws IOException {
    long shoff = h.getLong(40);
    int shentsize = Short.toUnsignedInt(h.getShort(58));
    int shnum = Short.toUnsignedInt(h.getShort(60));
    if (shentsize != 64 || shnum == 0 || shnum > MAX_SECTIONS) {
      return false;
    }
    ByteBuffer sections = read(f, shoff, shnum * 64);
    if (sections == null) {
      return false;
    }
    byte[] wanted = name.getBytes(StandardCharsets.US_ASCII);
    for (int i = 0; i < shnum; i++) {
      int at = i * 64;
      if (sections.getInt(at + 4) != SHT_DYNSYM) {
        continue;
      }
      long symOffset = sections.getLong(at + 24);
      long symSize = sections.getLong(at + 32);
      int link = sections.getInt(at + 40);
      if (link <= 0 || link >= shnum || symSize > MAX_TABLE) {
        return false;
      }
      long strOffset = sections.getLong(link * 64 + 24);
      long strSize = sections.getLong(link * 64 + 32);
      if (strSize > MAX_TABLE) {
        return false;
      }
      ByteBuffer symbols = read(f, symOffset, (int) symSize);
      ByteBuffer strings = read(f, strOffset, (int) strSize);
      if (symbols == null || strings == null) {
        return false;
      }
      for (int s = 0; s + 24 <= symSize; s += 24) {
        long nameAt = Integer.toUnsignedLong(symbols.getInt(s));
        int section = Short.toUnsignedInt(symbols.getShort(s + 6));
        if (section != 0 && named(strings, nameAt, wanted)) {
          return true;
        }
      }
    }
    return false;
  }

  private static boolean named(ByteBuffer strings, long at, byte[] wanted) {
    if (at + wanted.length >= strings.limit()) {
      return false;
    }
    for (int i = 0; i < wanted.length; i++) {
      if (strings.get((int) at + i) != wanted[i]) {
        return false;
      }
    }
    return strings.get((int) at + wanted.length) == 0;
  }

  private static ByteBuffer read(FileChannel f, long offset, int length) throws IOException {
    long size = f.size();
    if (offset < 0 || length < 0 || offset > size || length > size - offset) {
      return null;
    }
    ByteBuffer b = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
    while (b.hasRemaining()) {
      if (f.read(b, offset + b.position()) < 0) {
        return null;
      }
    }
    return b.flip();
  }
}
