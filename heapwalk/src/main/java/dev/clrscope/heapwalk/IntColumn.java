package dev.clrscope.heapwalk;

import java.util.Arrays;

/**
 * A growable column of ints in chunks of a fixed size: appending never copies what is there, so a
 * column of tens of millions of entries never needs twice its size while it grows. {@link #drain()}
 * hands the values over as one array, freeing each chunk as soon as it is copied.
 */
final class IntColumn {
  private static final int SHIFT = 20;
  private static final int CHUNK = 1 << SHIFT;
  private static final int MASK = CHUNK - 1;

  private int[][] chunks = new int[4][];
  private int size;

  void add(int v) {
    int c = size >>> SHIFT;
    if (c == chunks.length) {
      chunks = Arrays.copyOf(chunks, c * 2);
    }
    if (chunks[c] == null) {
      chunks[c] = new int[c == 0 ? 1 << 10 : CHUNK];
    } else if (c == 0 && size == chunks[0].length && size < CHUNK) {
      chunks[0] = Arrays.copyOf(chunks[0], Math.min(CHUNK, size * 4));
    }
    chunks[c][size & MASK] = v;
    size++;
  }

  /** Appends {@code values[0..n)}, a chunk's worth at a time. */
  void addAll(int[] values, int n) {
    int from = 0;
    while (from < n) {
      int c = size >>> SHIFT;
      int at = size & MASK;
      if (c == chunks.length) {
        chunks = Arrays.copyOf(chunks, c * 2);
      }
      if (chunks[c] == null) {
        chunks[c] = new int[c == 0 ? Math.max(1 << 10, Math.min(CHUNK, n)) : CHUNK];
      } else if (c == 0 && at + (n - from) > chunks[0].length && chunks[0].length < CHUNK) {
        chunks[0] =
            Arrays.copyOf(
                chunks[0], Math.min(CHUNK, Math.max(at + n - from, chunks[0].length * 4)));
      }
      int k = Math.min(n - from, chunks[c].length - at);
      System.arraycopy(values, from, chunks[c], at, k);
      size += k;
      from += k;
    }
  }

  int get(int i) {
    return chunks[i >>> SHIFT][i & MASK];
  }

  int size() {
    return size;
  }

  /** Frees the chunk that holds entries up to {@code i}: nothing at or before it is read again. */
  void releaseThrough(int i) {
    if ((i & MASK) == MASK) {
      chunks[i >>> SHIFT] = null;
    }
  }

  /** Empties the column. */
  void clear() {
    chunks = new int[4][];
    size = 0;
  }

  /** The values as one array; the column is empty afterwards. */
  int[] drain() {
    int[] all = new int[size()];
    drainInto(all, 0);
    return all;
  }

  /**
   * The values into {@code all} from {@code at}, freeing each chunk as soon as it is copied; the
   * column is empty afterwards.
   */
  void drainInto(int[] all, int at) {
    for (int c = 0; c * (long) CHUNK < size; c++) {
      int from = c << SHIFT;
      System.arraycopy(chunks[c], 0, all, at + from, Math.min(CHUNK, size - from));
      chunks[c] = null;
    }
    size = 0;
  }
}
