package dev.clrscope.monitor;

import dev.clrscope.monitor.gc.GcSummary;
import java.util.Arrays;

/**
 * Durations collected as they come, in a growing primitive array (8 bytes each), for exact
 * percentiles at the end: what the monitors' summaries (blocked time per waiting method, request
 * durations per host and status) are made of. Not thread-safe.
 */
public final class DurationSample {
  /**
   * What a sample comes to.
   *
   * @param count how many durations
   * @param totalMillis their sum
   * @param p50Millis the median (nearest rank)
   * @param p95Millis the 95th percentile (nearest rank)
   * @param maxMillis the longest
   */
  public record Stats(
      long count, double totalMillis, double p50Millis, double p95Millis, double maxMillis) {}

  private long[] nanos = new long[8];
  private int size;

  /** Adds one duration, in nanoseconds. */
  public void add(long durationNanos) {
    if (size == nanos.length) {
      nanos = Arrays.copyOf(nanos, size * 2);
    }
    nanos[size++] = durationNanos;
  }

  /** Adds every duration of {@code other}. */
  public void addAll(DurationSample other) {
    for (int i = 0; i < other.size; i++) {
      add(other.nanos[i]);
    }
  }

  /** How many durations. */
  public int count() {
    return size;
  }

  /** The count, total, p50, p95 and max, in milliseconds; the sample must not be empty. */
  public Stats stats() {
    if (size == 0) {
      throw new IllegalStateException("no durations");
    }
    double[] ms = new double[size];
    double total = 0;
    for (int i = 0; i < size; i++) {
      ms[i] = nanos[i] / 1e6;
      total += ms[i];
    }
    Arrays.sort(ms);
    return new Stats(
        size, total, GcSummary.percentile(ms, 50), GcSummary.percentile(ms, 95), ms[size - 1]);
  }
}
