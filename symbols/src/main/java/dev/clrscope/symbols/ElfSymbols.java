package dev.clrscope.symbols;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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

  private ElfSymbols(AddressTable byOffset) {
    this.byOffset = byOffset;
  }

  /** Reads {@code file}'s symbols; a file that is not ELF or cannot be read has none. */
  public static ElfSymbols read(Path file) {
    AddressTable.Builder b = new AddressTable.Builder();
    try {
      ElfFile elf = ElfFile.from(file);
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
      if (debug != null) {
        // The debug file's sections keep the addresses of the stripped file's segments.
        addFunctions(b, ElfFile.from(debug).getSymbolTableSection(), loads);
      }
    } catch (IOException | RuntimeException e) {
      // Not an ELF file we can read (deleted, a data file, a damaged library): no names from it.
      return new ElfSymbols(b.build());
    }
    return new ElfSymbols(b.build());
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
