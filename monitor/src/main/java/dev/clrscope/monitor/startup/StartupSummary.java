package dev.clrscope.monitor.startup;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * What a process did in its first moments: when it reached {@code Main}, and per kind of work how
 * much of it there was and its slowest items.
 *
 * @param observedNanos how long the session watched
 * @param mainOffsetNanos when {@code Main} was reached, from the start of the session, or {@code
 *     null} if not seen
 * @param mainMethod the method taken for {@code Main}, or {@code null}
 * @param launch the start before the session, for a child clrscope launched; else {@code null}
 * @param categories per kind ({@code assembly}, {@code jit}, {@code type}, {@code gc}), in that
 *     order, those seen
 */
public record StartupSummary(
    long observedNanos,
    Long mainOffsetNanos,
    String mainMethod,
    Launch launch,
    List<Category> categories) {

  /**
   * A launched child's start, from the moment clrscope started it. Its runtime waits for clrscope
   * once its native start is done, while clrscope sets up the session: that wait is not part of a
   * normal start, so it is reported apart and left out of {@link #startToMainNanos}.
   *
   * @param startToWaitNanos from the child's start to its runtime's wait: the host (the {@code
   *     dotnet} muxer resolving the framework) and the runtime's native start
   * @param heldNanos how long the runtime waited for clrscope
   * @param resumeToMainNanos from the resume to Main, or {@code null} if Main was not seen
   */
  public record Launch(long startToWaitNanos, long heldNanos, Long resumeToMainNanos) {
    /** From the child's start to Main, without clrscope's wait; {@code null} without Main. */
    public Long startToMainNanos() {
      return resumeToMainNanos == null ? null : startToWaitNanos + resumeToMainNanos;
    }
  }

  /**
   * One kind of work.
   *
   * @param kind {@code assembly}, {@code jit}, {@code type} or {@code gc}
   * @param count how many items
   * @param totalNanos their time; for type loads, of the outermost loads only (loading a type loads
   *     others inside it, which would count twice)
   * @param beforeMain how many started before {@code Main} was reached
   * @param slowest the slowest items, slowest first
   */
  public record Category(
      String kind, long count, long totalNanos, long beforeMain, List<StartupRecord> slowest) {
    /** Copies the list. */
    public Category {
      slowest = List.copyOf(slowest);
    }
  }

  /** Copies the list. */
  public StartupSummary {
    categories = List.copyOf(categories);
  }

  /** Counts, totals and the slowest items of one kind, in bounded memory. */
  static final class Tally {
    private static final Comparator<StartupRecord> BY_DURATION =
        Comparator.comparingLong(StartupRecord::durationNanos);

    final String kind;
    private final int top;
    private final PriorityQueue<StartupRecord> slowest = new PriorityQueue<>(BY_DURATION);
    long count;
    long totalNanos;
    long beforeMain;

    Tally(String kind, int top) {
      this.kind = kind;
      this.top = top;
    }

    /**
     * Counts an item.
     *
     * @param countsInTotal whether its time adds to the total (not a type load inside another)
     * @param afterMain whether it started once Main had been reached
     */
    void add(StartupRecord r, boolean countsInTotal, boolean afterMain) {
      count++;
      if (countsInTotal) {
        totalNanos += r.durationNanos();
      }
      if (!afterMain) {
        beforeMain++;
      }
      if (top <= 0) {
        return;
      }
      slowest.add(r);
      if (slowest.size() > top) {
        slowest.poll();
      }
    }

    Category category() {
      List<StartupRecord> list = new ArrayList<>(slowest);
      list.sort(BY_DURATION.reversed());
      return new Category(kind, count, totalNanos, beforeMain, list);
    }
  }
}
