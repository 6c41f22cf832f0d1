package dev.clrscope.nettrace;

import java.time.Instant;
import java.util.Map;

/**
 * The trace-wide facts from the Trace object (V3-V5) or Trace block (V6).
 *
 * <pre>
 *  V3-V5 Trace object data (48 bytes):
 *  +--------------------------------+-------------+-------------+
 *  | SYSTEMTIME 8 x i16 (UTC)       | i64 syncQPC | i64 qpcFreq |
 *  +------------+---------+---------+-------------+-------------+
 *  | i32 ptrSize| i32 pid | i32 cpus| i32 expectedCpuSamplingRate |
 *  +------------+---------+---------+-----------------------------+
 *  V6: the first 36 bytes, then i32 count of (string key, string value) pairs.
 * </pre>
 *
 * @param formatVersion 3 (netperf), 4 (nettrace V4/V5, as the runtime writes), or 6
 * @param syncTimeUtc wall-clock time that corresponds to {@code syncTimeQpc}
 * @param syncTimeQpc timestamp counter value at {@code syncTimeUtc}
 * @param qpcFrequency timestamp ticks per second
 * @param pointerSize 4 or 8
 * @param processId traced process id (0 if unknown)
 * @param processorCount logical processors of the traced machine (0 if unknown)
 * @param expectedCpuSamplingRate sample profiler period in ns (0 if unknown)
 * @param keyValues V6 header key/value pairs; empty for older versions
 */
public record TraceHeader(
    int formatVersion,
    Instant syncTimeUtc,
    long syncTimeQpc,
    long qpcFrequency,
    int pointerSize,
    int processId,
    int processorCount,
    int expectedCpuSamplingRate,
    Map<String, String> keyValues) {

  public TraceHeader {
    keyValues = Map.copyOf(keyValues);
  }

  /** Converts a raw event timestamp to UTC, as {@code syncUtc + (ts - syncQpc) / freq}. */
  public Instant toUtc(long timestamp) {
    long nanos = relativeNanos(timestamp);
    return syncTimeUtc.plusNanos(nanos);
  }

  /** Nanoseconds between the sync point and {@code timestamp}; negative if earlier. */
  public long relativeNanos(long timestamp) {
    return ticksToNanos(timestamp - syncTimeQpc);
  }

  /**
   * {@code timestamp} in nanoseconds of the runtime's own clock. On Linux the runtime's counter is
   * {@code CLOCK_MONOTONIC}, the clock of the JVM's {@link System#nanoTime()}: a moment a tool
   * noted on the same machine can be set against an event's.
   */
  public long clockNanos(long timestamp) {
    return ticksToNanos(timestamp);
  }

  private long ticksToNanos(long ticks) {
    if (qpcFrequency == 1_000_000_000L) {
      return ticks;
    }
    // Split to avoid overflow of ticks * 1e9.
    long seconds = ticks / qpcFrequency;
    long rest = ticks % qpcFrequency;
    return seconds * 1_000_000_000L + rest * 1_000_000_000L / qpcFrequency;
  }
}
