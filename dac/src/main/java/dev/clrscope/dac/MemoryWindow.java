package dev.clrscope.dac;

import dev.clrscope.dac.source.TargetMemory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Reads 8-byte words of target memory through a window read ahead in large pieces, so walking the
 * references of a large array costs one read per megabyte, not one per element.
 */
final class MemoryWindow {
  private final TargetMemory memory;
  private final byte[] window;
  private final ByteBuffer view;
  private long base;
  private int length;

  MemoryWindow(TargetMemory memory, int size) {
    this.memory = memory;
    this.window = new byte[size];
    this.view = ByteBuffer.wrap(window).order(ByteOrder.LITTLE_ENDIAN);
  }

  /**
   * The word at {@code address}, reading ahead no further than {@code limit}.
   *
   * @return the word, or 0 when it is not readable
   */
  long word(long address, long limit) {
    long at = address - base;
    if (length == 0 || at < 0 || at + 8 > length) {
      int want = (int) Math.max(8, Math.min(window.length, limit - address));
      base = address;
      length = memory.read(address, window, 0, want);
      at = 0;
      if (length < 8) {
        length = 0;
        return 0;
      }
    }
    return view.getLong((int) at);
  }

  /**
   * The {@code n} words from {@code address} into {@code into[0..n)}, as {@link #word} reads them
   * (0 where not readable), copied a window's run at a time rather than a word at a time.
   */
  void words(long address, long limit, long[] into, int n) {
    int done = 0;
    while (done < n) {
      long at = address - base;
      if (length == 0 || at < 0 || at + 8 > length) {
        into[done++] = word(address, limit);
        address += 8;
        continue;
      }
      int k = Math.min(n - done, (int) ((length - at) >>> 3));
      ByteBuffer.wrap(window, (int) at, 8 * k)
          .order(ByteOrder.LITTLE_ENDIAN)
          .asLongBuffer()
          .get(into, done, k);
      done += k;
      address += 8L * k;
    }
  }
}
