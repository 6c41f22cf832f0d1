package dev.clrscope.monitor.gc;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a run of GCs adds up to: counts per generation and per reason, pause statistics, the share
 * of time paused and the allocation rate.
 *
 * @param gcs GCs seen
 * @param observedNanos how long the GCs were watched
 * @param perGeneration GCs per condemned generation ({@code gen0}, {@code gen1}, {@code gen2})
 * @param perType GCs per type (NonConcurrent, Background, Foreground)
 * @param perReason GCs per reason, by name
 * @param totalPauseNanos every GC suspension seen, summed (it includes suspensions of GCs that had
 *     not ended when the watch stopped)
 * @param meanPauseMillis mean of the per-GC pauses, or {@code null} without GCs
 * @param maxPauseMillis the longest per-GC pause, or {@code null}
 * @param p95PauseMillis the 95th percentile (nearest rank) of per-GC pauses, or {@code null}
 * @param p99PauseMillis the 99th percentile (nearest rank), or {@code null}
 * @param pausedPercent total pause over the observed time, in percent, or {@code null}
 * @param allocatedBytes bytes allocated between the first and the last GC (see {@link
 *     Accumulator}), or {@code null} with fewer than two GCs with heap history
 * @param allocationBytesPerSecond {@code allocatedBytes} over the time between those GCs, or {@code
 *     null}
 * @param unfinishedGcs GCs that started but had not ended when the watch stopped
 */
public record GcSummary(
    long gcs,
    long observedNanos,
    Map<String, Long> perGeneration,
    Map<String, Long> perType,
    Map<String, Long> perReason,
    long totalPauseNanos,
    Double meanPauseMillis,
    Double maxPauseMillis,
    Double p95PauseMillis,
    Double p99PauseMillis,
    Double pausedPercent,
    Long allocatedBytes,
    Double allocationBytesPerSecond,
    long unfinishedGcs) {

  /** Copies the maps (keeping their order). */
  public GcSummary {
    perGeneration = java.util.Collections.unmodifiableMap(new TreeMap<>(perGeneration));
    perType = java.util.Collections.unmodifiableMap(new TreeMap<>(perType));
    perReason = java.util.Collections.unmodifiableMap(new TreeMap<>(perReason));
  }

  /** The total pause in milliseconds. */
  public double totalPauseMillis() {
    return totalPauseNanos / 1e6;
  }

  /** The value at percentile {@code p} (0-100] of sorted values, by the nearest-rank method. */
  public static double percentile(double[] sorted, double p) {
    if (sorted.length == 0) {
      throw new IllegalArgumentException("no values");
    }
    int rank = (int) Math.ceil(p / 100.0 * sorted.length);
    return sorted[Math.max(0, Math.min(sorted.length, rank) - 1)];
  }

  /**
   * Collects GCs as they complete. Memory grows by one double and a few longs per GC.
   *
   * <p>Allocation between two consecutive GCs (by number) is what generation 0, the LOH and the POH
   * grew by from the end of the first to the start of the second: new objects go only there, and
   * nothing leaves them between GCs. It is summed from the second GC on.
   */
  public static final class Accumulator {
    private final Map<String, Long> perGeneration = new TreeMap<>();
    private final Map<String, Long> perType = new TreeMap<>();
    private final Map<String, Long> perReason = new TreeMap<>();
    private double[] pauses = new double[64];
    private int pauseCount;
    private long gcs;
    private final List<AllocationPoint> points = new ArrayList<>();

    /** A GC's heap at its start and end, for the allocation estimate. */
    private record AllocationPoint(
        long number,
        long startNanos,
        long endNanos,
        GenerationSizes before,
        GenerationSizes after) {}

    /** Adds a GC. */
    public void add(GcRecord r) {
      gcs++;
      perGeneration.merge("gen" + r.generation(), 1L, Long::sum);
      perType.merge(r.type(), 1L, Long::sum);
      perReason.merge(r.reason(), 1L, Long::sum);
      Double p = r.pauseMillis();
      if (p != null) {
        if (pauseCount == pauses.length) {
          pauses = Arrays.copyOf(pauses, pauseCount * 2);
        }
        pauses[pauseCount++] = p;
      }
      GenerationSizes before = r.sizeBefore();
      GenerationSizes after = r.heaps().isEmpty() ? null : sizeAfterFromHeaps(r);
      if (before != null && after != null && r.durationNanos() != null) {
        points.add(
            new AllocationPoint(
                r.number(), r.startNanos(), r.startNanos() + r.durationNanos(), before, after));
      }
    }

    private static GenerationSizes sizeAfterFromHeaps(GcRecord r) {
      GenerationSizes sum = GenerationSizes.ZERO;
      for (HeapHistory h : r.heaps()) {
        sum = sum.plus(h.sizeAfter());
      }
      return sum;
    }

    /** The number of GCs added. */
    public long gcs() {
      return gcs;
    }

    /**
     * The summary.
     *
     * @param observedNanos how long the GCs were watched
     * @param totalPauseNanos all GC suspensions seen ({@link GcAssembler#pausedNanos()})
     * @param unfinishedGcs GCs that had not ended ({@link GcAssembler#unfinishedGcs()})
     */
    public GcSummary build(long observedNanos, long totalPauseNanos, long unfinishedGcs) {
      double[] sorted = Arrays.copyOf(pauses, pauseCount);
      Arrays.sort(sorted);
      Double mean = null;
      Double max = null;
      Double p95 = null;
      Double p99 = null;
      if (sorted.length > 0) {
        double sum = 0;
        for (double d : sorted) {
          sum += d;
        }
        mean = sum / sorted.length;
        max = sorted[sorted.length - 1];
        p95 = percentile(sorted, 95);
        p99 = percentile(sorted, 99);
      }
      Double pausedPercent =
          observedNanos > 0 ? 100.0 * totalPauseNanos / (double) observedNanos : null;
      Long allocated = null;
      Double rate = null;
      List<AllocationPoint> byNumber = new ArrayList<>(points);
      byNumber.sort(Comparator.comparingLong(AllocationPoint::number));
      if (byNumber.size() >= 2) {
        long bytes = 0;
        for (int i = 1; i < byNumber.size(); i++) {
          GenerationSizes prev = byNumber.get(i - 1).after();
          GenerationSizes now = byNumber.get(i).before();
          bytes += Math.max(0, now.gen0() - prev.gen0());
          bytes += Math.max(0, now.loh() - prev.loh());
          bytes += Math.max(0, now.poh() - prev.poh());
        }
        allocated = bytes;
        long span = byNumber.get(byNumber.size() - 1).startNanos() - byNumber.get(0).endNanos();
        if (span > 0) {
          rate = bytes / (span / 1e9);
        }
      }
      return new GcSummary(
          gcs,
          observedNanos,
          perGeneration,
          perType,
          perReason,
          totalPauseNanos,
          mean,
          max,
          p95,
          p99,
          pausedPercent,
          allocated,
          rate,
          unfinishedGcs);
    }
  }
}
