package dev.clrscope.heapwalk;

import java.util.Arrays;

/**
 * A growable column of longs in chunks of a fixed size: appending never copies what is there, so a
 * column of tens of millions of entries never needs twice its size while it grows. {@link #drain()}
 * hands the values over as one array, freeing each chunk as soon as it is copied.
 */
final class LongColumn {
  private static final int SHIFT = 20;
  private static final int CHUNK = 1 << SHIFT;
  private static final int MASK = CHUNK - 1;

  private long[][] chunks = new long[4][];

  /**
   * How many entries there are, but those {@link #add} put in {@link #tail}: see {@link #size()}.
   */
  private int size;

  /**
   * The chunk {@link #add} writes into (null: none), the entry its first slot is, its next free
   * slot and its length (0 when there is none). A walk adds tens of millions of references one at a
   * time: with only these to read, {@link #add} is small enough for the quick compiler to inline
   * (at most 35 bytes of bytecode).
   */
  private long[] tail;

  private int tailBase;
  private int tailPos;
  private int tailEnd;

  void add(long v) {
    int p = tailPos;
    if (p < tailEnd) {
      tail[p] = v;
      tailPos = p + 1;
      return;
    }
    addToNewChunk(v);
  }

  /** Counts what {@link #add} put in the tail into {@link #size}, and lets the tail go. */
  private void settle() {
    if (tail != null) {
      size = tailBase + tailPos;
      tail = null;
      tailPos = 0;
      tailEnd = 0;
    }
  }

  private void addToNewChunk(long v) {
    settle();
    int c = size >>> SHIFT;
    if (c == chunks.length) {
      chunks = Arrays.copyOf(chunks, c * 2);
    }
    if (chunks[c] == null) {
      chunks[c] = new long[c == 0 ? 1 << 10 : CHUNK];
    } else if (c == 0 && size == chunks[0].length && size < CHUNK) {
      chunks[0] = Arrays.copyOf(chunks[0], Math.min(CHUNK, size * 4));
    }
    chunks[c][size & MASK] = v;
    size++;
    tail = chunks[c];
    tailBase = c << SHIFT;
    tailPos = size - tailBase;
    tailEnd = tail.length;
  }

  /** Appends {@code values[0..n)}, a chunk's worth at a time. */
  void addAll(long[] values, int n) {
    settle();
    int from = 0;
    while (from < n) {
      int c = size >>> SHIFT;
      int at = size & MASK;
      if (c == chunks.length) {
        chunks = Arrays.copyOf(chunks, c * 2);
      }
      if (chunks[c] == null) {
        chunks[c] = new long[c == 0 ? Math.max(1 << 10, Math.min(CHUNK, n)) : CHUNK];
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

  long get(int i) {
    return chunks[i >>> SHIFT][i & MASK];
  }

  int size() {
    return tail != null ? tailBase + tailPos : size;
  }

  /**
   * Ends the adding: what the tail holds is counted, so that threads may read the column (and
   * {@link #release} its chunks) from here on.
   */
  void seal() {
    settle();
  }

  /**
   * The chunk that holds entry {@code i}, from its first entry: entry {@code i} is at {@code i %
   * chunk length}, and {@code i} is expected to be a chunk's first entry.
   */
  long[] chunkAt(int i) {
    return chunks[i >>> SHIFT];
  }

  /** How many entries a chunk holds (but the first, which may hold fewer while it grows). */
  static int chunkSize() {
    return CHUNK;
  }

  /** Frees chunk {@code c}: nothing in it is read again, nor added to (the column is sealed). */
  void release(int c) {
    chunks[c] = null;
  }

  /** Empties the column. */
  void clear() {
    settle();
    chunks = new long[4][];
    size = 0;
  }

  /** The values as one array; the column is empty afterwards. */
  long[] drain() {
    long[] all = new long[size()];
    drainInto(all, 0);
    return all;
  }

  /**
   * The values into {@code all} from {@code at}, freeing each chunk as soon as it is copied; the
   * column is empty afterwards.
   */
  void drainInto(long[] all, int at) {
    settle();
    for (int c = 0; c * (long) CHUNK < size; c++) {
      int from = c << SHIFT;
      System.arraycopy(chunks[c], 0, all, at + from, Math.min(CHUNK, size - from));
      chunks[c] = null;
    }
    size = 0;
  }
}
