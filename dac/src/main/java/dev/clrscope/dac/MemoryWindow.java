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
}
