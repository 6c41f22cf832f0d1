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
 * memory. The addresses are every reference's in order, or (an exact walk's, most of whose
 * references were resolved as they came) those left, each with its place.
 */
final class Resolution {
  /** Entries a thread takes at a time. */
  private static final int UNIT = LongColumn.chunkSize() / 4;

  /** Below this, a second thread costs more than it saves. */
  private static final int PARALLEL_FROM = 1 << 20;

  private final LongColumn from;
  private final IntColumn places;
  private final int[] into;
  private final int count;
  private final LongToIntFunction index;
  private final long[] addresses;
  private final int units;
  private final AtomicInteger nextUnit = new AtomicInteger();
  private final AtomicIntegerArray unitsLeft;
  private final AtomicLong outside = new AtomicLong();

  private Resolution(
      LongColumn from, IntColumn places, int[] into, LongToIntFunction index, long[] addresses) {
    this.from = from;
    this.addresses = addresses;
    this.places = places;
    this.into = into;
    this.index = index;
    count = places == null ? into.length : from.size();
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
   * Resolves the addresses of {@code from} into {@code into} through {@code index} (-1 for an
   * address no object starts at), freeing {@code from}'s chunks as it goes; returns how many
   * nonzero addresses found no object. Without {@code places}, {@code into.length} entries of
   * {@code from} in order; with them, each address of {@code from} into {@code into} at its place.
   * {@code addresses}, when not null, are the objects' addresses by number, in ascending order, as
   * {@code index} finds them.
   */
  static long resolve(
      LongColumn from, IntColumn places, int[] into, LongToIntFunction index, long[] addresses) {
    Resolution r = new Resolution(from, places, into, index, addresses);
    if (r.count < PARALLEL_FROM || Runtime.getRuntime().availableProcessors() < 2) {
      r.work();
      return r.outside.get();
    }
    Throwable[] failed = {null};
    Thread helper =
        new Thread(
            () -> {
              try {
                r.work();
              } catch (RuntimeException | Error e) {
                failed[0] = e;
              }
            },
            "clrscope-heap-resolve");
    helper.setDaemon(true);
    helper.start();
    try {
      r.work();
    } finally {
      joinUninterruptibly(helper);
    }
    if (failed[0] instanceof RuntimeException e) {
      throw e;
    }
    if (failed[0] instanceof Error e) {
      throw e;
    }
    return r.outside.get();
  }

  private static void joinUninterruptibly(Thread t) {
    boolean interrupted = false;
    while (true) {
      try {
        t.join();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
  }

  private void work() {
    int chunk = LongColumn.chunkSize();
    long missed = 0;
    // Runs of references to one object are common (objects of a type sharing one comparer, label
    // or empty string), and so are runs to one object after another (an array's elements,
    // allocated in order): the last one found, or the one after it, is not looked up.
    long lastAddress = 0;
    int lastObject = -1;
    long[] objects = addresses;
    for (int u; (u = nextUnit.getAndIncrement()) < units; ) {
      int start = u * UNIT;
      int end = Math.min(count, start + UNIT);
      int c = start / chunk;
      long[] addresses = from.chunkAt(start);
      int[] at = places == null ? null : places.chunkAt(start);
      for (int k = start, j = start - c * chunk; k < end; k++, j++) {
        long a = addresses[j];
        int o;
        if (a == lastAddress && a != 0) {
          o = lastObject;
        } else {
          o =
              objects != null
                      && lastObject >= 0
                      && lastObject + 1 < objects.length
                      && objects[lastObject + 1] == a
                  ? lastObject + 1
                  : index.applyAsInt(a);
          lastAddress = a;
          lastObject = o;
        }
        into[at == null ? k : at[j]] = o;
        if (o < 0 && a != 0) {
          missed++;
        }
      }
      if (unitsLeft.decrementAndGet(c) == 0) {
        from.release(c);
        if (places != null) {
          places.release(c);
        }
      }
    }
    outside.addAndGet(missed);
  }
}
