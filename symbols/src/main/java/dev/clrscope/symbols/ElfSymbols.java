package dev.clrscope.symbols;

import dev.clrscope.nettrace.InputFile;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import net.fornwall.jelf.ElfException;
import net.fornwall.jelf.ElfFile;
import net.fornwall.jelf.ElfSection;
import net.fornwall.jelf.ElfSegment;
import net.fornwall.jelf.ElfSymbol;
import net.fornwall.jelf.ElfSymbolTableSection;

/**
 * The function symbols of one ELF file (a shared library or executable), by file offset: what a
 * mapping of the file in a process ({@code /proc/PID/maps}: start, file offset) turns an
 * instruction pointer into. Reads {@code .symtab} and {@code .dynsym}, and the {@code .symtab} of
 * the separate debug file a {@code .gnu_debuglink} section names when one is installed (beside the
 * file, in its {@code .debug/} directory, or under {@code /usr/lib/debug}). Function symbols with a
 * value and a size are kept; a symbol's file offset is its value less its loadable segment's
 * virtual address plus that segment's file offset.
 */
public final class ElfSymbols {
  private final AddressTable byOffset;
  private final String problem;

  private ElfSymbols(AddressTable byOffset, String problem) {
    this.byOffset = byOffset;
    this.problem = problem;
  }

  /** An ELF file whose headers claim what the file does not hold. */
  static final class Malformed extends Exception {
    private static final long serialVersionUID = 1L;

    Malformed(String message) {
      super(message);
    }
  }

  /**
   * Reads {@code file}'s symbols. A file that is not there or not ELF (a managed assembly the
   * runtime maps) has none, silently; one that is not a regular file, or an ELF file whose headers
   * claim more than it holds, has none and a {@link #problem()}.
   */
  public static ElfSymbols read(Path file) {
    AddressTable.Builder b = new AddressTable.Builder();
    try {
      ElfFile elf = open(file);
      if (elf == null) {
        return new ElfSymbols(b.build(), null);
      }
      List<ElfSegment> loads = new ArrayList<>();
      for (int i = 0; i < elf.e_phnum; i++) {
        ElfSegment s = elf.getProgramHeader(i);
        if (s.p_type == ElfSegment.PT_LOAD) {
          loads.add(s);
        }
      }
      addFunctions(b, elf.getDynamicSymbolTableSection(), loads);
      addFunctions(b, elf.getSymbolTableSection(), loads);
      Path debug = debugFile(file, elf);
      ElfFile debugElf = debug == null ? null : open(debug);
      if (debugElf != null) {
        // The debug file's sections keep the addresses of the stripped file's segments.
        addFunctions(b, debugElf.getSymbolTableSection(), loads);
      }
    } catch (NoSuchFileException e) {
      // A library of another machine or a deleted one: the module's name only, as documented.
      return new ElfSymbols(b.build(), null);
    } catch (FileSystemException e) {
      return new ElfSymbols(
          new AddressTable.Builder().build(),
          e.getReason() == null ? e.toString() : e.getFile() + ": " + e.getReason());
    } catch (IOException | Malformed e) {
      return new ElfSymbols(new AddressTable.Builder().build(), file + ": " + e.getMessage());
    } catch (RuntimeException e) {
      // jelf's own complaints (ElfException) and reads past the end of a damaged file.
      return new ElfSymbols(
          new AddressTable.Builder().build(), file + ": a damaged ELF file (" + e + ")");
    }
    return new ElfSymbols(b.build(), null);
  }

  /**
   * Why this file's symbols were skipped (it is no regular file, or its headers claim more than it
   * holds), or {@code null}.
   */
  public String problem() {
    return problem;
  }

  /**
   * The ELF file at {@code file}, mapped, once its headers are checked against its size; {@code
   * null} when it is not ELF at all.
   */
  private static ElfFile open(Path file) throws IOException, Malformed {
    try (FileChannel ch = InputFile.open(file)) {
      long size = ch.size();
      if (size < 16) {
        return null;
      }
      MappedByteBuffer map = ch.map(FileChannel.MapMode.READ_ONLY, 0, size);
      if (map.getInt(0) != 0x7f454c46) {
        return null;
      }
      checkHeaders(map.duplicate(), size);
      return ElfFile.from(map);
    }
  }

  /**
   * Checks that the section and program header tables and every section with contents lie inside
   * the file, and that symbol tables have entries of their size: jelf sizes its arrays from the
   * headers, so a header claiming terabytes would otherwise fill the heap.
   */
  static void checkHeaders(ByteBuffer elf, long size) throws Malformed {
    boolean wide = elf.get(4) == 2;
    if (!wide && elf.get(4) != 1) {
      throw new Malformed("an ELF class " + elf.get(4) + ", neither 32 nor 64 bits");
    }
    elf.order(elf.get(5) == 2 ? ByteOrder.BIG_ENDIAN : ByteOrder.LITTLE_ENDIAN);
    int header = wide ? 64 : 52;
    if (size < header) {
      throw new Malformed("its ELF header is cut off (" + size + " bytes)");
    }
    long phoff = wide ? elf.getLong(0x20) : Integer.toUnsignedLong(elf.getInt(0x1C));
    long shoff = wide ? elf.getLong(0x28) : Integer.toUnsignedLong(elf.getInt(0x20));
    int phentsize = Short.toUnsignedInt(elf.getShort(wide ? 0x36 : 0x2A));
    int phnum = Short.toUnsignedInt(elf.getShort(wide ? 0x38 : 0x2C));
    int shentsize = Short.toUnsignedInt(elf.getShort(wide ? 0x3A : 0x2E));
    int shnum = Short.toUnsignedInt(elf.getShort(wide ? 0x3C : 0x30));
    if (phnum > 0) {
      inside("its program headers", phoff, (long) phnum * phentsize, size);
    }
    if (shnum == 0) {
      return;
    }
    if (shentsize != (wide ? 64 : 40)) {
      throw new Malformed("its section headers are " + shentsize + " bytes each");
    }
    inside("its section headers", shoff, (long) shnum * shentsize, size);
    for (int i = 0; i < shnum; i++) {
      int at = (int) (shoff + (long) i * shentsize);
      int type = elf.getInt(at + 4);
      long offset = wide ? elf.getLong(at + 0x18) : Integer.toUnsignedLong(elf.getInt(at + 0x10));
      long length = wide ? elf.getLong(at + 0x20) : Integer.toUnsignedLong(elf.getInt(at + 0x14));
      long entsize = wide ? elf.getLong(at + 0x38) : Integer.toUnsignedLong(elf.getInt(at + 0x24));
      if (type == SHT_NULL || type == SHT_NOBITS) {
        continue;
      }
      inside("its section " + i, offset, length, size);
      if ((type == SHT_SYMTAB || type == SHT_DYNSYM) && entsize != (wide ? 24 : 16)) {
        throw new Malformed("its symbol table (section " + i + ") has entries of " + entsize);
      }
    }
  }

  private static final int SHT_NULL = 0;
  private static final int SHT_SYMTAB = 2;
  private static final int SHT_NOBITS = 8;
  private static final int SHT_DYNSYM = 11;

  private static void inside(String what, long offset, long length, long size) throws Malformed {
    if (offset < 0 || length < 0 || offset > size || length > size - offset) {
      throw new Malformed(
          String.format(
              Locale.ROOT,
              "%s claim %,d bytes at offset %,d, beyond the file's %,d bytes",
              what,
              length,
              offset,
              size));
    }
  }

  private static void addFunctions(
      AddressTable.Builder b, ElfSymbolTableSection table, List<ElfSegment> loads) {
    if (table == null) {
      return;
    }
    for (ElfSymbol s : table.symbols) {
      if (s.getType() != ElfSymbol.STT_FUNC || s.st_value == 0 || s.st_size <= 0) {
        continue;
      }
      for (ElfSegment seg : loads) {
        if (s.st_value >= seg.p_vaddr && s.st_value < seg.p_vaddr + seg.p_memsz) {
          String name;
          try {
            name = s.getName();
          } catch (ElfException e) {
            name = null;
          }
          if (name != null && !name.isEmpty()) {
            b.add(s.st_value - seg.p_vaddr + seg.p_offset, s.st_size, name);
          }
          break;
        }
      }
    }
  }

  /** The separate debug file {@code .gnu_debuglink} names, if it is installed here. */
  private static Path debugFile(Path file, ElfFile elf) {
    ElfSection link = elf.firstSectionByName(".gnu_debuglink");
    if (link == null) {
      return null;
    }
    byte[] data = link.getData();
    int end = 0;
    while (end < data.length && data[end] != 0) {
      end++;
    }
    if (end == 0) {
      return null;
    }
    String name = new String(data, 0, end, StandardCharsets.UTF_8);
    Path dir = file.toAbsolutePath().getParent();
    if (dir == null) {
      return null;
    }
    List<Path> candidates =
        List.of(
            dir.resolve(name),
            dir.resolve(".debug").resolve(name),
            Path.of("/usr/lib/debug" + dir).resolve(name));
    for (Path c : candidates) {
      if (!c.equals(file) && Files.isRegularFile(c)) {
        return c;
      }
    }
    return null;
  }

  /** The function holding file offset {@code offset}, or {@code null}. */
  public String nameAtOffset(long offset) {
    return byOffset.nameOrNull(offset);
  }

  /** Number of function symbols. */
  public int size() {
    return byOffset.size();
  }
}
