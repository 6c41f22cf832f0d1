package dev.clrscope.dac;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Where a type's instances hold references: the GC descriptor the runtime keeps just below each
 * method table that has pointers (what the GC itself marks through), decoded once per type, so an
 * object's references are read from its bytes with no call into the DAC.
 *
 * <p>The descriptor is a count at {@code MT - 8} and, below it, either that many series (a start
 * offset and a length that is relative to the object's size: fields, or an array of references), or
 * for a negative count a start offset and that many {@code (pointers, skip)} pairs repeated to the
 * object's end (an array of structs that hold references).
 */
final class GcDesc {
  /** A descriptor with more entries than this is not one. */
  static final int MAX_SERIES = 1 << 16;

  private final long[] offsets;
  private final long[] sizes;
  private final int[] pointers;
  private final int[] skips;
  private final long repeatStart;

  /**
   * Whether every offset, length and skip is a whole number of words: the slots are then words of
   * the object, which {@link #gather} reads by index. A real descriptor always is.
   */
  private final boolean inWords;

  private GcDesc(long[] offsets, long[] sizes, int[] pointers, int[] skips, long repeatStart) {
    this.offsets = offsets;
    this.sizes = sizes;
    this.pointers = pointers;
    this.skips = skips;
    this.repeatStart = repeatStart;
    boolean words = (repeatStart & 7) == 0;
    for (int i = 0; offsets != null && i < offsets.length; i++) {
      words &= (offsets[i] & 7) == 0 && (sizes[i] & 7) == 0;
    }
    for (int i = 0; skips != null && i < skips.length; i++) {
      words &= (skips[i] & 7) == 0;
    }
    this.inWords = words;
  }

  /**
   * Decodes the descriptor whose count was {@code count} from {@code bytes}, the {@code 8 * (1 + 2
   * * |count|)} bytes that end at the method table.
   *
   * @return the descriptor, or null when the bytes are no descriptor
   */
  static GcDesc decode(long count, byte[] bytes) {
    if (count == 0 || Math.abs(count) > MAX_SERIES) {
      return null;
    }
    ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    int len = bytes.length;
    int highest = len - 24;
    if (count > 0) {
      int n = (int) count;
      long[] offsets = new long[n];
      long[] sizes = new long[n];
      // Series are stored from the lowest address up; walked from the one nearest the count.
      for (int i = 0; i < n; i++) {
        int at = highest - 16 * i;
        sizes[i] = b.getLong(at);
        offsets[i] = b.getLong(at + 8);
      }
      return new GcDesc(offsets, sizes, null, null, 0);
    }
    int n = (int) -count;
    int[] pointers = new int[n];
    int[] skips = new int[n];
    for (int i = 0; i < n; i++) {
      int at = highest - 8 * i;
      pointers[i] = b.getInt(at);
      skips[i] = b.getInt(at + 4);
    }
    return new GcDesc(null, null, pointers, skips, b.getLong(highest + 8));
  }

  /** How many bytes below the method table a descriptor of {@code count} series takes. */
  static int byteSize(long count) {
    return 8 * (1 + 2 * (int) Math.abs(count));
  }

  /** The reference slots of an object of {@code size} bytes, as offsets from its start. */
  void forEachSlot(long size, SlotVisitor visitor) {
    eachRun(
        size,
        (offset, words) -> {
          for (long k = 0; k < words; k++) {
            visitor.slot(offset + 8 * k);
          }
        });
  }

  /**
   * The non-null references of an object of {@code size} bytes whose first word is {@code
   * words[first]} and whose every word is in {@code words}, copied into {@code out} from its start:
   * the slots {@link #forEachSlot} gives, read with no call per slot (a walk meets tens of millions
   * of them).
   *
   * @return how many, or -1 when {@code out} has no room for them or the descriptor's slots are not
   *     whole words (then {@link #forEachSlot} reads them)
   */
  int gather(long size, long[] words, int first, long[] out) {
    if (!inWords) {
      return -1;
    }
    int n = 0;
    if (offsets != null) {
      for (int i = 0; i < offsets.length; i++) {
        long offset = offsets[i];
        long stop = offset + sizes[i] + size;
        if (offset < 0 || stop > size) {
          return n;
        }
        if (stop <= offset) {
          continue;
        }
        int k = first + (int) (offset >>> 3);
        int end = k + (int) ((stop - offset + 7) >>> 3);
        if (n + (end - k) > out.length) {
          return -1;
        }
        for (; k < end; k++) {
          long target = words[k];
          if (target != 0) {
            out[n++] = target;
          }
        }
      }
      return n;
    }
    long offset = repeatStart;
    if (offset < 0) {
      return 0;
    }
    long limit = size - 8;
    while (offset < limit) {
      long before = offset;
      for (int i = 0; i < pointers.length; i++) {
        long stop = offset + 8L * pointers[i];
        if (stop > size) {
          return n;
        }
        if (stop > offset) {
          if (offset < 0) {
            // A skip back before the object (a damaged descriptor): the slot walk reads those.
            return -1;
          }
          int k = first + (int) (offset >>> 3);
          int end = k + (int) ((stop - offset) >>> 3);
          if (n + (end - k) > out.length) {
            return -1;
          }
          for (; k < end; k++) {
            long target = words[k];
            if (target != 0) {
              out[n++] = target;
            }
          }
          offset = stop;
        }
        offset += skips[i];
      }
      if (offset <= before) {
        return n;
      }
    }
    return n;
  }

  /**
   * The reference slots of an object of {@code size} bytes as runs of consecutive words: {@link
   * #forEachSlot}'s slots, a run per series (an array of references is one), so that a large
   * object's references are read a run at a time.
   *
   * @return false when the slots are not whole words (then only {@link #forEachSlot} reads them)
   */
  boolean forEachRun(long size, RunVisitor visitor) {
    if (!inWords) {
      return false;
    }
    eachRun(size, visitor);
    return true;
  }

  /**
   * The one walk of the descriptor's slots, as runs of slots 8 bytes apart (whole words or not):
   * {@link #forEachSlot} and {@link #forEachRun} read it; {@link #gather} does the same walk
   * inline, with no call per run, for the heap walk's every object.
   */
  private void eachRun(long size, RunVisitor visitor) {
    if (offsets != null) {
      for (int i = 0; i < offsets.length; i++) {
        long offset = offsets[i];
        long stop = offset + sizes[i] + size;
        if (offset < 0 || stop > size) {
          return;
        }
        if (stop > offset) {
          visitor.run(offset, (stop - offset + 7) >>> 3);
        }
      }
      return;
    }
    long offset = repeatStart;
    if (offset < 0) {
      return;
    }
    long limit = size - 8;
    while (offset < limit) {
      long before = offset;
      for (int i = 0; i < pointers.length; i++) {
        long stop = offset + 8L * pointers[i];
        if (stop > size) {
          return;
        }
        if (stop > offset) {
          visitor.run(offset, pointers[i]);
          offset = stop;
        }
        offset += skips[i];
      }
      if (offset <= before) {
        // A descriptor that does not advance would loop for ever: not a real one.
        return;
      }
    }
  }

  /** Receives each run of reference slots: its first slot's offset and how many words it holds. */
  interface RunVisitor {
    void run(long offset, long words);
  }

  /** Receives the offset of each reference slot of an object. */
  interface SlotVisitor {
    void slot(long offset);
  }
}
