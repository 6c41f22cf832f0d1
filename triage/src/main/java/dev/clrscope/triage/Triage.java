package dev.clrscope.triage;

import dev.clrscope.dac.TargetException;
import dev.clrscope.dac.analysis.HeapContents;
import dev.clrscope.heapwalk.HeapSnapshot;
import dev.clrscope.heapwalk.TypeDiff;
import java.util.List;

/**
 * Runs every check on a target and puts the findings in order, most severe first. A check the
 * target cannot answer (memory a core lacks, a runtime without a field) says so among the checks;
 * the others go on.
 */
public final class Triage {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Triage.class);

  private Triage() {}

  /** Depth and width of the heap's picture: the biggest retainers, three levels down. */
  private static final int PICTURE_DEPTH = 3;

  private static final int PICTURE_WIDTH = 12;

  private static final double PICTURE_MIN_SHARE = 0.002;

  /** A check of one area: reads the target, adds findings and what it checked. */
  @FunctionalInterface
  private interface Check {
    void run() throws TargetException;
  }

  /**
   * Triage of one target.
   *
   * @param target what to read
   * @param settings the thresholds
   * @param live what a watch of the live process saw, or null (a core, or no watch)
   * @param earlier an earlier heap to compare this one with, or null
   * @param earlierName what the earlier heap is, for the report (its core's path)
   */
  public static TriageResult run(
      TriageTarget target,
      TriageSettings settings,
      LiveSample live,
      HeapSnapshot earlier,
      String earlierName) {
    Results out = new Results();
    HeapContents.Scan[] scan = new HeapContents.Scan[1];
    if (settings.memory()) {
      // The heap graph first: its dominators are then computed on another thread while the
      // threads' checks read through the DAC on this one. What heap waste needs of each object is
      // read in the graph's own walk.
      guard(out, HEAP_WASTE, () -> scan[0] = target.scanHeap(settings.minInvocations()));
    }
    guard(out, DEADLOCKS, () -> Deadlocks.run(target, out));
    guard(out, SYNC_OVER_ASYNC, () -> SyncOverAsync.run(target, out));
    guard(out, THREAD_POOL, () -> ThreadPoolStarvation.run(target, out));
    guard(out, FINALIZER, () -> Finalizer.run(target, out));
    guard(out, EXCEPTIONS, () -> Exceptions.run(target, out));
    long reachable = -1;
    List<HeapSnapshot.Retainer> picture = List.of();
    List<TypeDiff> grown = List.of();
    if (settings.memory()) {
      guard(out, LEAK_SUSPECTS, () -> LeakSuspects.run(target, settings, out));
      if (scan[0] != null) {
        guard(out, HEAP_WASTE, () -> HeapWaste.run(target, scan[0], settings, out));
      }
      try {
        HeapSnapshot h = target.heap();
        reachable = h.reachableSize();
        picture = h.biggestRetainers(PICTURE_DEPTH, PICTURE_MIN_SHARE, PICTURE_WIDTH);
        if (earlier != null) {
          grown = Growth.grown(earlier, h);
          List<TypeDiff> g = grown;
          guard(out, GROWTH, () -> Growth.run(target, settings, earlierName, earlier, g, out));
        }
      } catch (TargetException e) {
        // Said by the memory checks already.
      }
    } else {
      out.area(LEAK_SUSPECTS);
      out.checked("memory", "not read (--no-heap)");
    }
    guard(out, TIMERS, () -> TimerPileUp.run(target, settings, out));
    if (live != null) {
      guard(out, LIVE_WATCH, () -> LiveSigns.run(target, live, out));
    }
    List<Finding> findings = out.findings();
    return new TriageResult(
        target.describe(),
        findings,
        out.checks(),
        reachable,
        picture,
        grown,
        earlier == null ? null : earlierName);
  }

  // The areas, in the order the report lists them.
  private static final String[] AREAS = {
    "deadlocks",
    "sync over async",
    "thread pool",
    "finalizer",
    "exceptions",
    "leak suspects",
    "heap waste",
    "growth",
    "timers",
    "live watch"
  };
  private static final int DEADLOCKS = 0;
  private static final int SYNC_OVER_ASYNC = 1;
  private static final int THREAD_POOL = 2;
  private static final int FINALIZER = 3;
  private static final int EXCEPTIONS = 4;
  private static final int LEAK_SUSPECTS = 5;
  private static final int HEAP_WASTE = 6;
  private static final int GROWTH = 7;
  private static final int TIMERS = 8;
  private static final int LIVE_WATCH = 9;

  private static void guard(Results out, int rank, Check check) {
    String area = AREAS[rank];
    out.area(rank);
    long start = System.nanoTime();
    try {
      check.run();
    } catch (TargetException e) {
      out.checked(area, "could not be checked: " + e.getMessage());
    } finally {
      LOG.debug("{} checked in {} ms", area, (System.nanoTime() - start) / 1_000_000);
    }
  }

  /** A word as a shell reads it (a core's path in the next commands): quoted when it must be. */
  public static String shellWord(String word) {
    return Next.quoted(word);
  }
}
