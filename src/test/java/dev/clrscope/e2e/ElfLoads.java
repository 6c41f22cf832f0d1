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
      ByteBuffer h = ByteBuffer.allocate(64).order(ByteOrder.LITTLE_ENDIAN);
      ch.read(h, 0);
      long phoff = h.getLong(32);
      int phentsize = h.getShort(54) & 0xffff;
      int phnum = h.getShort(56) & 0xffff;
      ByteBuffer ph = ByteBuffer.allocate(phentsize * phnum).order(ByteOrder.LITTLE_ENDIAN);
      ch.read(ph, phoff);
      List<long[]> loads = new ArrayList<>();
      for (int i = 0; i < phnum; i++) {
        int b = i * phentsize;
        if (ph.getInt(b) == 1 && (!writableOnly || (ph.getInt(b + 4) & 2) != 0)) {
          loads.add(new long[] {ph.getLong(b + 16), ph.getLong(b + 8), ph.getLong(b + 32)});
        }
      }
      return loads;
    }
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
