package dev.clrscope.dac.analysis;

import dev.clrscope.dac.ClrObject;
import dev.clrscope.dac.ClrProcess;
import dev.clrscope.dac.ClrType;
import java.util.ArrayList;
import java.util.List;

/**
 * The timers the runtime will fire ({@code System.Threading.Timer}, {@code System.Timers.Timer},
 * {@code Task.Delay}...): every {@code TimerQueueTimer} in the lists of the runtime's timer queues
 * (one per processor), with its due time, period and callback (the triage extensions' {@code
 * timerinfo}).
 */
public final class Timers {
  private Timers() {}

  /** What {@code uint.MaxValue} means for a due time or period: never (Timeout.Infinite). */
  public static final long INFINITE = 0xffffffffL;

  /**
   * A timer.
   *
   * @param address its {@code TimerQueueTimer}
   * @param queue the timer queue that holds it
   * @param dueTimeMs when it fires first, in milliseconds after it was set ({@link #INFINITE}:
   *     never)
   * @param periodMs how often it fires after that ({@link #INFINITE}: once)
   * @param canceled whether it was disposed
   * @param callback what it calls
   * @param state the state object it passes, or 0
   * @param stateType that object's type, or null
   */
  public record TimerInfo(
      long address,
      long queue,
      long dueTimeMs,
      long periodMs,
      boolean canceled,
      Callback callback,
      long state,
      String stateType) {
    /** Whether it fires again and again. */
    public boolean periodic() {
      return periodMs != INFINITE && periodMs != 0;
    }
  }

  /** Every timer of every timer queue. */
  public static List<TimerInfo> of(ClrProcess p) {
    List<Long> queues = new ArrayList<>();
    ClrType[] queueType = new ClrType[1];
    p.walkHeap(
        o -> {
          if (queueType[0] == null && o.type().name().equals("System.Threading.TimerQueue")) {
            queueType[0] = o.type();
          }
          if (o.type() == queueType[0]) {
            queues.add(o.address());
          }
        });
    List<TimerInfo> timers = new ArrayList<>();
    for (long q : queues) {
      ClrObject queue = Fields.objectAt(p, q);
      for (String list : new String[] {"_shortTimers", "_longTimers", "_timers"}) {
        ClrObject t = Fields.object(p, queue, list);
        for (int guard = 0; t != null && guard < 10_000_000; guard++) {
          timers.add(timer(p, q, t));
          t = Fields.object(p, t, "_next");
        }
      }
    }
    return timers;
  }

  private static TimerInfo timer(ClrProcess p, long queue, ClrObject t) {
    ClrObject callback = Fields.object(p, t, "_timerCallback");
    ClrObject state = Fields.object(p, t, "_state");
    return new TimerInfo(
        t.address(),
        queue,
        Fields.number(t, "_dueTime", INFINITE) & 0xffffffffL,
        Fields.number(t, "_period", INFINITE) & 0xffffffffL,
        Fields.number(t, "_canceled", 0) != 0,
        callback == null ? null : Callback.of(p, callback),
        state == null ? 0 : state.address(),
        state == null ? null : state.type().name());
  }
}
