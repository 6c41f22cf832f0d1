package dev.clrscope.monitor.heap;

import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A heap snapshot's time line for {@code -v}: one debug line per phase (connected, session started,
 * the walk's first and last events, the stream's end, the graph, the file, ...), each in
 * milliseconds since the JVM started and the CPU time the process has used by then (on a shared
 * machine the second says more than the first), so that where the time goes can be read off one
 * run.
 */
public final class HeapTimeline {
  private static final Logger log = LoggerFactory.getLogger(HeapTimeline.class);

  /** The JVM's start on {@link System#nanoTime()}'s clock; found on the first mark. */
  private static volatile long jvmStartNanos;

  private HeapTimeline() {}

  /** Logs that {@code phase} was reached now (at debug level; nothing when that is off). */
  public static void mark(String phase) {
    if (log.isDebugEnabled()) {
      log.debug("{} ms (CPU {} ms): {}", sinceJvmStart(), processCpuMillis(), phase);
    }
  }

  /** The CPU time this process has used so far (every thread, the JIT's included), or -1. */
  private static long processCpuMillis() {
    if (java.lang.management.ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.OperatingSystemMXBean os) {
      return os.getProcessCpuTime() / 1_000_000;
    }
    return -1;
  }

  /** Whether marks are logged: for callers that would do work only to mark a phase. */
  public static boolean enabled() {
    return log.isDebugEnabled();
  }

  private static long sinceJvmStart() {
    long now = System.nanoTime();
    if (jvmStartNanos == 0) {
      // The JVM's own start (wall clock, milliseconds); /proc's would be off by up to a second.
      long uptimeMillis = java.lang.management.ManagementFactory.getRuntimeMXBean().getUptime();
      jvmStartNanos = now - TimeUnit.MILLISECONDS.toNanos(uptimeMillis);
    }
    return TimeUnit.NANOSECONDS.toMillis(now - jvmStartNanos);
  }
}
