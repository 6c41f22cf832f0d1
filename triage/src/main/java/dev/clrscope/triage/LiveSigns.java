package dev.clrscope.triage;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What only a live process shows, from a short watch of its counters: much time paused in GC, many
 * exceptions a second, work waiting in the thread pool's queue the whole time.
 */
final class LiveSigns {
  private LiveSigns() {}

  /** A share of time in GC pauses from which it is a finding, in percent. */
  static final double GC_PERCENT = 10;

  /** Exceptions a second from which they are a finding. */
  static final double EXCEPTIONS_PER_SECOND = 100;

  static void run(TriageTarget target, LiveSample live, Results out) {
    List<String> seen = new ArrayList<>();
    String over = "the " + String.format(Locale.ROOT, "%.1f", live.seconds()) + " s watched";
    if (live.gcPausePercent() != null) {
      seen.add(String.format(Locale.ROOT, "%.1f%% paused in GC", live.gcPausePercent()));
      if (live.gcPausePercent() >= GC_PERCENT) {
        out.add(
            new Finding(
                Finding.Kind.GC_TIME,
                Severity.WARNING,
                String.format(
                    Locale.ROOT,
                    "The process was paused in GC %.1f%% of %s.",
                    live.gcPausePercent(),
                    over),
                Evidence.builder()
                    .fact("GC pause percent", round(live.gcPausePercent()))
                    .fact("seconds watched", round(live.seconds()))
                    .build(),
                List.of(
                    Next.command(target, "gcstats", "--duration", "30s"),
                    Next.command(target, "alloc", "--duration", "30s"))));
      }
    }
    if (live.exceptionsPerSecond() != null) {
      seen.add(String.format(Locale.ROOT, "%.1f exceptions/s", live.exceptionsPerSecond()));
      if (live.exceptionsPerSecond() >= EXCEPTIONS_PER_SECOND) {
        out.add(
            new Finding(
                Finding.Kind.EXCEPTION_RATE,
                Severity.WARNING,
                String.format(
                    Locale.ROOT,
                    "The process threw %.0f exceptions a second over %s.",
                    live.exceptionsPerSecond(),
                    over),
                Evidence.builder()
                    .fact("exceptions per second", round(live.exceptionsPerSecond()))
                    .fact("seconds watched", round(live.seconds()))
                    .build(),
                List.of(Next.command(target, "exceptions", "--duration", "10s"))));
      }
    }
    if (live.queueLength() != null) {
      seen.add(
          "thread pool queue "
              + Math.round(live.queueLength())
              + (live.threadCount() == null
                  ? ""
                  : ", " + Math.round(live.threadCount()) + " pool threads"));
      if (live.minQueueLength() != null && live.minQueueLength() >= 1 && live.samples() >= 2) {
        Evidence.Builder e =
            Evidence.builder()
                .fact("queue length", Math.round(live.queueLength()))
                .fact("smallest queue length", Math.round(live.minQueueLength()));
        if (live.threadCount() != null) {
          e.fact("pool threads", Math.round(live.threadCount()));
        }
        out.add(
            new Finding(
                Finding.Kind.POOL_QUEUE,
                Severity.WARNING,
                "Work waited in the thread pool's queue all through "
                    + over
                    + ": "
                    + Words.count(Math.round(live.queueLength()), "item", "items")
                    + " at the end"
                    + (live.threadCount() == null
                        ? "."
                        : ", with "
                            + Words.count(Math.round(live.threadCount()), "thread", "threads")
                            + "."),
                e.build(),
                List.of(Next.analyze(target, "threadpoolqueue"), Next.analyze(target, "pstacks"))));
      }
    }
    String watched =
        seen.isEmpty()
            ? "the counters reported nothing in " + over
            : String.join(", ", seen) + " over " + over;
    out.checked(
        "live watch",
        live.cutShortBy() == null
            ? watched
            : String.format(
                    Locale.ROOT,
                    "cut short by %s after %.1f s of %s s; ",
                    live.cutShortBy(),
                    live.seconds(),
                    seconds(live.plannedSeconds()))
                + watched);
  }

  /** {@code 60}, {@code 2.5}: a length as given. */
  private static String seconds(double s) {
    return s == Math.rint(s) ? Long.toString((long) s) : String.format(Locale.ROOT, "%.1f", s);
  }

  private static double round(double v) {
    return Math.round(v * 10) / 10.0;
  }
}
