package dev.clrscope.dac;

import dev.clrscope.dac.source.TargetMemory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Map;
import java.util.TreeMap;

/**
 * Target memory for the tests: regions of bytes at addresses, the rest unreadable. A read copies
 * the readable prefix of the range within one region (as a core file's reader does within one of
 * its memory segments), and is counted.
 */
final class RegionMemory implements TargetMemory {
  private final TreeMap<Long, byte[]> regions = new TreeMap<>();
  private int reads;

  /** Adds {@code bytes} at {@code address}; regions never overlap. */
  RegionMemory add(long address, byte[] bytes) {
    regions.put(address, bytes);
    return this;
  }

  /** Adds the words {@code words} at {@code address}, little-endian. */
  RegionMemory addWords(long address, long[] words) {
    ByteBuffer b = ByteBuffer.allocate(8 * words.length).order(ByteOrder.LITTLE_ENDIAN);
    b.asLongBuffer().put(words);
    return add(address, b.array());
  }

  /** How many reads were made. */
  int reads() {
    return reads;
  }

  @Override
  public int read(long address, byte[] dst, int offset, int length) {
    reads++;
    Map.Entry<Long, byte[]> e = regions.floorEntry(address);
    if (e == null || address - e.getKey() >= e.getValue().length) {
      return 0;
    }
    int at = (int) (address - e.getKey());
    int n = Math.min(length, e.getValue().length - at);
    System.arraycopy(e.getValue(), at, dst, offset, n);
    return n;
  }

  /**
   * The word at {@code address} when its 8 bytes are in one region, else 0: what reads should see.
   */
  long wordOrZero(long address) {
    Map.Entry<Long, byte[]> e = regions.floorEntry(address);
    if (e == null || address - e.getKey() + 8 > e.getValue().length) {
      return 0;
    }
    return ByteBuffer.wrap(e.getValue())
        .order(ByteOrder.LITTLE_ENDIAN)
        .getLong((int) (address - e.getKey()));
  }
}
