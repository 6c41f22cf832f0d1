package dev.clrscope.triage;

import dev.clrscope.dac.TargetException;
import dev.clrscope.heapwalk.HeapSnapshot;
import dev.clrscope.heapwalk.TypeDiff;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Runs every check on a target and puts the findings in order, most severe first. A check the
 * target cannot answer (memory a core lacks, a runtime without a field) says so among the checks;
 * the others go on.
 */
public final class Triage {
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
    guard(out, "deadlocks", () -> Deadlocks.run(target, out));
    guard(out, "sync over async", () -> SyncOverAsync.run(target, out));
    guard(out, "thread pool", () -> ThreadPoolStarvation.run(target, out));
    guard(out, "finalizer", () -> Finalizer.run(target, out));
    guard(out, "exceptions", () -> Exceptions.run(target, out));
    long reachable = -1;
    List<HeapSnapshot.Retainer> picture = List.of();
    List<TypeDiff> grown = List.of();
    if (settings.memory()) {
      guard(out, "leak suspects", () -> LeakSuspects.run(target, settings, out));
      guard(out, "heap waste", () -> HeapWaste.run(target, settings, out));
      try {
        HeapSnapshot h = target.heap();
        reachable = h.reachableSize();
        picture = h.biggestRetainers(PICTURE_DEPTH, PICTURE_MIN_SHARE, PICTURE_WIDTH);
        if (earlier != null) {
          grown = Growth.grown(earlier, h);
          List<TypeDiff> g = grown;
          guard(out, "growth", () -> Growth.run(target, settings, earlierName, earlier, g, out));
        }
      } catch (TargetException e) {
        // Said by the memory checks already.
      }
    } else {
      out.checked("memory", "not read (--no-heap)");
    }
    guard(out, "timers", () -> TimerPileUp.run(target, settings, out));
    if (live != null) {
      guard(out, "live watch", () -> LiveSigns.run(target, live, out));
    }
    List<Finding> findings = new ArrayList<>(out.findings);
    // Stable: within a severity, the order the checks ran in.
    findings.sort(Comparator.comparing(Finding::severity));
    return new TriageResult(
        target.describe(),
        findings,
        out.checks,
        reachable,
        picture,
        grown,
        earlier == null ? null : earlierName);
  }

  private static void guard(Results out, String area, Check check) {
    try {
      check.run();
    } catch (TargetException e) {
      out.checked(area, "could not be checked: " + e.getMessage());
    }
  }

  /** A word as a shell reads it (a core's path in the next commands): quoted when it must be. */
  public static String shellWord(String word) {
    return Next.quoted(word);
  }
}
