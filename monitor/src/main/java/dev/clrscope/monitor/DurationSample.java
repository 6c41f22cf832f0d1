package dev.clrscope.monitor;

import dev.clrscope.monitor.gc.GcSummary;
import java.util.Arrays;
import org.HdrHistogram.Histogram;

/**
 * Durations collected as they come, for the monitors' summaries (blocked time per waiting method,
 * request durations per host and status). The first {@value #EXACT_LIMIT} are kept in a growing
 * primitive array (8 bytes each) for exact percentiles; past that, so that a monitor left running
 * for hours stays bounded in memory, they go into a histogram with three significant digits
 * (percentiles within 0.1 %; count, total and maximum stay exact). Not thread-safe.
 */
public final class DurationSample {
  /** How many durations are kept one by one before the histogram takes over: 8 MB. */
  public static final int EXACT_LIMIT = 1 << 20;

  /**
   * What a sample comes to.
   *
   * @param count how many durations
   * @param totalMillis their sum
   * @param p50Millis the median (nearest rank)
   * @param p95Millis the 95th percentile (nearest rank)
   * @param maxMillis the longest
   * @param exact whether the percentiles are exact (else within 0.1 %)
   */
  public record Stats(
      long count,
      double totalMillis,
      double p50Millis,
      double p95Millis,
      double maxMillis,
      boolean exact) {}

  private long[] nanos = new long[8];
  private int size;

  /** Every duration once there are more than {@link #EXACT_LIMIT}; {@code null} until then. */
  private Histogram histogram;

  private long count;
  private long totalNanos;
  private long maxNanos = Long.MIN_VALUE;

  /** Adds one duration, in nanoseconds. */
  public void add(long durationNanos) {
    count++;
    totalNanos += durationNanos;
    maxNanos = Math.max(maxNanos, durationNanos);
    if (histogram == null && size == EXACT_LIMIT) {
      toHistogram();
    }
    if (histogram != null) {
      histogram.recordValue(Math.max(0, durationNanos));
      return;
    }
    if (size == nanos.length) {
      nanos = Arrays.copyOf(nanos, size * 2);
    }
    nanos[size++] = durationNanos;
  }

  /** Adds every duration of {@code other}. */
  public void addAll(DurationSample other) {
    if (other.histogram == null) {
      for (int i = 0; i < other.size; i++) {
        add(other.nanos[i]);
      }
      return;
    }
    if (histogram == null) {
      toHistogram();
    }
    histogram.add(other.histogram);
    count += other.count;
    totalNanos += other.totalNanos;
    maxNanos = Math.max(maxNanos, other.maxNanos);
  }

  private void toHistogram() {
    // Three significant digits, resizing itself to whatever the longest duration is.
    histogram = new Histogram(3);
    for (int i = 0; i < size; i++) {
      histogram.recordValue(Math.max(0, nanos[i]));
    }
    nanos = null;
    size = 0;
  }

  /** How many durations. */
  public long count() {
    return count;
  }

  /** The count, total, p50, p95 and max, in milliseconds; the sample must not be empty. */
  public Stats stats() {
    if (count == 0) {
      throw new IllegalStateException("no durations");
    }
    if (histogram != null) {
      return new Stats(
          count,
          totalNanos / 1e6,
          histogram.getValueAtPercentile(50) / 1e6,
          histogram.getValueAtPercentile(95) / 1e6,
          maxNanos / 1e6,
          false);
    }
    double[] ms = new double[size];
    double total = 0;
    for (int i = 0; i < size; i++) {
      ms[i] = nanos[i] / 1e6;
      total += ms[i];
    }
    Arrays.sort(ms);
    return new Stats(
        size,
        total,
        GcSummary.percentile(ms, 50),
        GcSummary.percentile(ms, 95),
        ms[size - 1],
        true);
  }
}
