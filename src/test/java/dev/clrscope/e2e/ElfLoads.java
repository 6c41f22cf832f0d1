package dev.clrscope.e2e;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A core's PT_LOAD segments (virtual address, file offset, size in the file), for tests that damage
 * a core's memory.
 */
final class ElfLoads {
  private ElfLoads() {}

  /** Each PT_LOAD: {vaddr, offset, filesz}. */
  static List<long[]> of(Path core) throws IOException {
    return loads(core, false);
  }

  /** Each writable PT_LOAD (PF_W): {vaddr, offset, filesz}. */
  static List<long[]> writable(Path core) throws IOException {
    return loads(core, true);
  }

  private static List<long[]> loads(Path core, boolean writableOnly) throws IOException {
    try (FileChannel ch = FileChannel.open(core)) {
      ProgramHeaders ph = ProgramHeaders.read(ch);
      List<long[]> loads = new ArrayList<>();
      for (int i = 0; i < ph.count(); i++) {
        int b = ph.at(i);
        if (ph.table().getInt(b) == 1 && (!writableOnly || (ph.table().getInt(b + 4) & 2) != 0)) {
          loads.add(
              new long[] {
                ph.table().getLong(b + 16), ph.table().getLong(b + 8), ph.table().getLong(b + 32)
              });
        }
      }
      return loads;
    }
  }

  /** The program header table: where it is in the file, its entries' size and count. */
  private record ProgramHeaders(long offset, int entrySize, int count, ByteBuffer table) {
    static ProgramHeaders read(FileChannel ch) throws IOException {
      ByteBuffer h = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
      ch.read(h, 0);
      long phoff = h.getLong(32);
      int phentsize = h.getShort(54) & 0xffff;
      int phnum = h.getShort(56) & 0xffff;
      ByteBuffer ph = ByteBuffer.allocate(phentsize * phnum).order(ByteOrder.LITTLE_ENDIAN);
      ch.read(ph, phoff);
      return new ProgramHeaders(phoff, phentsize, phnum, ph);
    }

    /** Where entry {@code i} starts in {@link #table}. */
    int at(int i) {
      return i * entrySize;
    }
  }

  /**
   * Moves the PT_LOAD segment that holds {@code address} to {@code to} (its program header's
   * virtual address rewritten, its bytes left where they are): the memory it held is no longer in
   * the core.
   *
   * @return the segment's size in memory
   */
  static long move(Path core, long address, long to) throws IOException {
    try (FileChannel ch =
        FileChannel.open(
            core, java.nio.file.StandardOpenOption.READ, java.nio.file.StandardOpenOption.WRITE)) {
      ProgramHeaders ph = ProgramHeaders.read(ch);
      for (int i = 0; i < ph.count(); i++) {
        int b = ph.at(i);
        long vaddr = ph.table().getLong(b + 16);
        long memsz = ph.table().getLong(b + 40);
        if (ph.table().getInt(b) == 1
            && Long.compareUnsigned(address, vaddr) >= 0
            && Long.compareUnsigned(address, vaddr + memsz) < 0) {
          ByteBuffer moved = ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, to);
          ch.write(moved, ph.offset() + b + 16);
          return memsz;
        }
      }
    }
    throw new IllegalArgumentException("no PT_LOAD holds 0x" + Long.toHexString(address));
  }

  /** Where {@code address} is in the file, or -1 when no segment holds it. */
  static long fileOffset(List<long[]> loads, long address) {
    for (long[] l : loads) {
      if (Long.compareUnsigned(address, l[0]) >= 0
          && Long.compareUnsigned(address, l[0] + l[2]) < 0) {
        return l[1] + (address - l[0]);
      }
    }
    return -1;
  }
}
