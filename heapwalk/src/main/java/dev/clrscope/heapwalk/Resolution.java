package dev.clrscope.heapwalk;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongToIntFunction;

/**
 * The walk's references, addresses as they came, resolved to object numbers: on two threads when
 * there are millions of them (the lookups only read the index, and a heap snapshot's other core is
 * idle by then: the session has ended), a quarter of a column chunk at a time, each chunk freed
 * once its quarters are resolved, so that the addresses and the numbers are never both whole in
 * memory.
 */
final class Resolution {
  /** Entries a thread takes at a time. */
  private static final int UNIT = LongColumn.chunkSize() / 4;

  /** Below this, a second thread costs more than it saves. */
  private static final int PARALLEL_FROM = 1 << 20;

  private final LongColumn from;
  private final int[] into;
  private final int at;
  private final int count;
  private final LongToIntFunction index;
  private final int units;
  private final AtomicInteger nextUnit = new AtomicInteger();
  private final AtomicIntegerArray unitsLeft;
  private final AtomicLong outside = new AtomicLong();

  private Resolution(LongColumn from, int[] into, int at, int count, LongToIntFunction index) {
    this.from = from;
    this.into = into;
    this.at = at;
    this.count = count;
    this.index = index;
    units = (count + UNIT - 1) / UNIT;
    int chunk = LongColumn.chunkSize();
    int chunks = (count + chunk - 1) / chunk;
    unitsLeft = new AtomicIntegerArray(chunks);
    for (int c = 0; c < chunks; c++) {
      int entries = Math.min(chunk, count - c * chunk);
      unitsLeft.set(c, (entries + UNIT - 1) / UNIT);
    }
  }

  /**
   * Resolves {@code into.length} entries of {@code from} into {@code into} through {@code index}
   * (-1 for an address no object starts at), freeing {@code from}'s chunks as it goes; returns how
   * many nonzero addresses found no object.
   */
  static long resolve(LongColumn from, int[] into, LongToIntFunction index) {
    return resolve(from, into, 0, into.length, index);
  }

  /** {@link #resolve} of {@code count} entries into {@code into} from {@code at}. */
  static long resolve(LongColumn from, int[] into, int at, int count, LongToIntFunction index) {
    from.seal();
    Resolution r = new Resolution(from, into, at, count, index);
    if (count < PARALLEL_FROM || Runtime.getRuntime().availableProcessors() < 2) {
      r.work();
      return r.outside.get();
    }
    Beside<Void> helper =
        Beside.run(
            "clrscope-heap-resolve",
            true,
            () -> {
              r.work();
              return null;
            });
    try {
      r.work();
    } catch (RuntimeException | Error e) {
      try {
        helper.get();
      } catch (RuntimeException | Error also) {
        e.addSuppressed(also);
      }
      throw e;
    }
    helper.get();
    return r.outside.get();
  }

  private void work() {
    int chunk = LongColumn.chunkSize();
    long missed = 0;
    // Runs of references to one object are common (objects of a type sharing one comparer, label
    // or empty string): the last one found is not looked up again.
    long lastAddress = 0;
    int lastObject = -1;
    for (int u; (u = nextUnit.getAndIncrement()) < units; ) {
      int start = u * UNIT;
      int end = Math.min(count, start + UNIT);
      int c = start / chunk;
      long[] addresses = from.chunkAt(start);
      for (int k = start, j = start - c * chunk; k < end; k++, j++) {
        long a = addresses[j];
        int o;
        if (a == lastAddress && a != 0) {
          o = lastObject;
        } else {
          o = index.applyAsInt(a);
          lastAddress = a;
          lastObject = o;
        }
        into[at + k] = o;
        if (o < 0 && a != 0) {
          missed++;
        }
      }
      if (unitsLeft.decrementAndGet(c) == 0) {
        from.release(c);
      }
    }
    outside.addAndGet(missed);
  }
}
