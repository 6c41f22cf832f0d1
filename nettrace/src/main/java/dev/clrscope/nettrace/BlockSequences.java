package dev.clrscope.nettrace;

import java.util.Arrays;

/**
 * The sequence numbers of one event block's events, per capture thread, decoded apart from the
 * parser (the unordered visit): each thread's first and last number in the block and the events
 * found missing between its numbers inside the block. Folded in file order ({@link
 * TraceParser#foldSequences}), they count the drops the parser counts event by event.
 */
final class BlockSequences {
  private final int format;
  private long[] threads = new long[8];
  private int[] first = new int[8];
  private int[] last = new int[8];
  private long[] missing = new long[8];
  private int size;

  /** The index of the thread of the last event: a block holds runs of one thread's events. */
  private int recent = -1;

  BlockSequences(int format) {
    this.format = format;
  }

  /** The next event of capture thread {@code thread}, numbered {@code sequence}. */
  void add(long thread, int sequence) {
    int i = recent;
    if (i < 0 || threads[i] != thread) {
      i = indexOf(thread);
      if (i < 0) {
        i = append(thread, sequence);
      }
      recent = i;
    }
    if (last[i] != sequence - 1) {
      missing[i] += TraceParser.missing(last[i], sequence, format);
    }
    last[i] = sequence;
  }

  private int indexOf(long thread) {
    for (int k = 0; k < size; k++) {
      if (threads[k] == thread) {
        return k;
      }
    }
    return -1;
  }

  /** A thread's first event of the block: its number is checked against what came before. */
  private int append(long thread, int sequence) {
    if (size == threads.length) {
      threads = Arrays.copyOf(threads, size * 2);
      first = Arrays.copyOf(first, size * 2);
      last = Arrays.copyOf(last, size * 2);
      missing = Arrays.copyOf(missing, size * 2);
    }
    threads[size] = thread;
    first[size] = sequence;
    // Nothing is missing before the first event here; the fold checks it against the thread's last.
    last[size] = sequence - 1;
    missing[size] = 0;
    return size++;
  }

  int size() {
    return size;
  }

  long thread(int i) {
    return threads[i];
  }

  int first(int i) {
    return first[i];
  }

  int last(int i) {
    return last[i];
  }

  long missingWithin(int i) {
    return missing[i];
  }

  void clear() {
    size = 0;
    recent = -1;
  }
}
