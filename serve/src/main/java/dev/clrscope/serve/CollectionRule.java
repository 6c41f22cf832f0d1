package dev.clrscope.serve;

import dev.clrscope.ipc.client.DumpType;
import java.nio.file.Path;
import java.time.Duration;

/**
 * One collection rule: when counter {@code counter} of {@code provider} in a process named {@code
 * process} stays above (or below) {@code threshold} for {@code sustained}, collect {@code collect}
 * into {@code into}, at most once every {@code coolDown} for each process. dotnet-monitor's
 * collection rules (a process filter, an EventCounter trigger with GreaterThan and
 * SlidingWindowDuration, an action, an ActionCount limit) in fewer words.
 *
 * @param name how logs and {@code /rules} name it
 * @param process the process name it applies to ({@code -n}'s matching), or null for every watched
 *     one
 * @param provider the counter's Meter or EventSource
 * @param counter the instrument's name
 * @param above true for "above the threshold", false for "below"
 * @param threshold the threshold
 * @param sustained how long the counter must stay beyond it
 * @param collect what to collect
 * @param traceDuration a trace's length
 * @param traceProfile a trace's profiles, or null for the default ones
 * @param dumpType a dump's type
 * @param into the directory, or null for serve's artifact directory
 * @param coolDown the least time between two firings for one process
 */
public record CollectionRule(
    String name,
    String process,
    String provider,
    String counter,
    boolean above,
    double threshold,
    Duration sustained,
    Kind collect,
    Duration traceDuration,
    String traceProfile,
    DumpType dumpType,
    Path into,
    Duration coolDown) {

  /** What a rule collects. */
  public enum Kind {
    TRACE,
    GCDUMP,
    DUMP
  }

  /** How a log line says its condition: {@code clrscope.demo.queue.length above 40 for 5 s}. */
  public String condition() {
    return counter
        + (above ? " above " : " below ")
        + PrometheusText.number(threshold)
        + " for "
        + DurationText.show(sustained);
  }
}
