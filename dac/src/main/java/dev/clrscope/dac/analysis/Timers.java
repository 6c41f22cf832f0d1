package dev.clrscope.dac.analysis;

import dev.clrscope.dac.ClrHeap;
import dev.clrscope.dac.ClrObject;
import dev.clrscope.dac.Value;
import java.util.ArrayList;
import java.util.List;

/**
 * Every timer the runtime's timer queues hold (the {@code timerinfo} command): {@code
 * System.Threading.Timer}, {@code Task.Delay} and the like, as {@code TimerQueueTimer}s in each
 * {@code TimerQueue}'s short and long lists.
 */
public final class Timers {
  /** {@code Timeout.Infinite} as the timer stores it. */
  public static final long INFINITE = 0xffffffffL;

  private Timers() {}

  /**
   * One timer.
   *
   * @param address the TimerQueueTimer
   * @param dueTimeMs when it fires next, in ms from when it was last scheduled ({@link #INFINITE}:
   *     never)
   * @param periodMs its period ({@link #INFINITE}: fires once)
   * @param callback the method it calls, or null when not known
   * @param callbackTarget the object the callback is called on, or 0 for a static method
   * @param state the state object it passes, or 0
   * @param canceled whether it was disposed
   */
  public record TimerInfo(
      long address,
      long dueTimeMs,
      long periodMs,
      String callback,
      long callbackTarget,
      long state,
      boolean canceled) {}

  /** Every timer; none when the process never made one. */
  public static List<TimerInfo> all(ClrHeap heap) {
    List<TimerInfo> out = new ArrayList<>();
    long instances =
        RuntimeStatics.reference(heap, "System.Threading.TimerQueue", "<Instances>k__BackingField");
    if (instances == 0) {
      return out;
    }
    ClrObject queues = heap.object(instances);
    for (long i = 0; i < queues.length(); i++) {
      long q = ((Value.Reference) queues.element(i)).address();
      if (q == 0) {
        continue;
      }
      ClrObject queue = heap.object(q);
      for (String list : new String[] {"_shortTimers", "_longTimers"}) {
        int count = 0;
        for (ClrObject t = queue.objectField(list);
            t != null && count++ < 10_000_000;
            t = t.objectField("_next")) {
          ClrObject callback = t.objectField("_timerCallback");
          long target = callback == null ? 0 : callback.referenceField("_target");
          out.add(
              new TimerInfo(
                  t.address(),
                  Integer.toUnsignedLong(t.intField("_dueTime")),
                  Integer.toUnsignedLong(t.intField("_period")),
                  callback == null ? null : heap.runtime().delegateMethod(callback),
                  // A delegate to a static method has itself as its target.
                  callback != null && target == callback.address() ? 0 : target,
                  t.referenceField("_state"),
                  t.booleanField("_canceled")));
        }
      }
    }
    return out;
  }
}
