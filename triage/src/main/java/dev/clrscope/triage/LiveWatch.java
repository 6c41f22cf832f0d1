package dev.clrscope.triage;

import dev.clrscope.monitor.counters.CounterPlan;
import dev.clrscope.monitor.counters.CounterRequest;
import dev.clrscope.monitor.counters.CounterSource;
import dev.clrscope.monitor.counters.CounterUpdate;
import dev.clrscope.monitor.counters.Measurement;
import dev.clrscope.monitor.counters.WellKnownCounters;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The live watch's counters: what to ask the runtime for (System.Runtime's Meter on .NET 9 and
 * later, its EventCounters before), and what the values come to ({@link LiveSample}). The session
 * itself is the caller's, through the session runner, with a {@code CounterFeed} handing the
 * updates to {@link #accept}.
 */
public final class LiveWatch {
  /** The counters' interval, in seconds. */
  static final double REFRESH_SECONDS = 1.0;

  private static final String GC_PAUSE = "dotnet.gc.pause.time";
  private static final String EXCEPTIONS = "dotnet.exceptions";
  private static final String QUEUE = "dotnet.thread_pool.queue.length";
  private static final String THREADS = "dotnet.thread_pool.thread.count";
  private static final String OLD_GC = "time-in-gc";
  private static final String OLD_EXCEPTIONS = "exception-count";
  private static final String OLD_QUEUE = "threadpool-queue-length";
  private static final String OLD_THREADS = "threadpool-thread-count";

  private final CounterPlan plan;
  private final Map<String, List<Measurement>> byName = new HashMap<>();

  private LiveWatch(CounterPlan plan) {
    this.plan = plan;
  }

  /** The watch of a runtime of this major version (0: unknown, taken as current). */
  public static LiveWatch forRuntime(int runtimeMajor) {
    List<String> names =
        List.of(
            GC_PAUSE, EXCEPTIONS, QUEUE, THREADS, OLD_GC, OLD_EXCEPTIONS, OLD_QUEUE, OLD_THREADS);
    CounterRequest request =
        new CounterRequest(WellKnownCounters.SYSTEM_RUNTIME, CounterSource.ANY, names);
    return new LiveWatch(CounterPlan.of(List.of(request), REFRESH_SECONDS, 10, 1000, runtimeMajor));
  }

  /** The session's plan. */
  public CounterPlan plan() {
    return plan;
  }

  /** Takes one update (on the session's reader thread). */
  public synchronized void accept(CounterUpdate update) {
    if (update instanceof Measurement m && plan.wants(m)) {
      byName.computeIfAbsent(m.name(), k -> new ArrayList<>()).add(m);
    }
  }

  /**
   * What the values came to, over a watch of {@code seconds}.
   *
   * @param planned how long it was to watch
   * @param cutShortBy what ended it before its time (the user's {@code Ctrl+C}), or null
   */
  public synchronized LiveSample sample(double seconds, double planned, String cutShortBy) {
    Double gc = gcPercent();
    Double exceptions = exceptionsPerSecond(seconds);
    List<Double> queue = values(QUEUE, OLD_QUEUE);
    List<Double> threads = values(THREADS, OLD_THREADS);
    Double min = null;
    for (Double q : queue) {
      min = min == null ? q : Math.min(min, q);
    }
    return new LiveSample(
        seconds,
        planned,
        cutShortBy,
        gc,
        exceptions,
        queue.isEmpty() ? null : queue.get(queue.size() - 1),
        min,
        threads.isEmpty() ? null : threads.get(threads.size() - 1),
        Math.max(queue.size(), threads.size()));
  }

  private Double gcPercent() {
    List<Measurement> pause = byName.getOrDefault(GC_PAUSE, List.of());
    if (pause.size() >= 2) {
      Measurement first = pause.get(0);
      Measurement last = pause.get(pause.size() - 1);
      double elapsed = (last.time().toEpochMilli() - first.time().toEpochMilli()) / 1000.0;
      if (first.value() != null && last.value() != null && elapsed > 0) {
        return 100 * (last.value() - first.value()) / elapsed;
      }
    }
    if (pause.size() == 1 && pause.get(0).rate() != null) {
      return 100 * pause.get(0).rate() / REFRESH_SECONDS;
    }
    List<Double> old = values(OLD_GC);
    return old.isEmpty() ? null : old.stream().mapToDouble(Double::doubleValue).average().orElse(0);
  }

  private Double exceptionsPerSecond(double seconds) {
    List<Measurement> all = new ArrayList<>(byName.getOrDefault(EXCEPTIONS, List.of()));
    all.addAll(byName.getOrDefault(OLD_EXCEPTIONS, List.of()));
    if (all.isEmpty()) {
      // The Meter's counter of exceptions reports only the types thrown: none thrown, none sent.
      return byName.containsKey(THREADS) || byName.containsKey(OLD_THREADS) ? 0.0 : null;
    }
    double total = 0;
    for (Measurement m : all) {
      if (m.rate() != null && Double.isFinite(m.rate())) {
        total += m.rate();
      }
    }
    return total / Math.max(seconds, REFRESH_SECONDS);
  }

  private List<Double> values(String... names) {
    List<Double> out = new ArrayList<>();
    for (String n : names) {
      for (Measurement m : byName.getOrDefault(n, List.of())) {
        Double v = m.value() != null ? m.value() : m.rate();
        if (v != null && Double.isFinite(v)) {
          out.add(v);
        }
      }
    }
    return out;
  }
}
