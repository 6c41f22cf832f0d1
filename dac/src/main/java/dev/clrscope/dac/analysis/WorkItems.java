package dev.clrscope.dac.analysis;

import dev.clrscope.dac.ClrObject;
import dev.clrscope.dac.ClrProcess;
import dev.clrscope.dac.ClrValue;
import dev.clrscope.dac.Value;
import java.util.ArrayList;
import java.util.List;

/**
 * The work waiting in the thread pool's queues (the triage extensions' {@code threadpoolqueue}):
 * the global queues ({@code ThreadPool.s_workQueue}: normal, high and low priority, and the queues
 * assigned to groups of workers) and each worker's local queue ({@code
 * ThreadPoolWorkQueue.WorkStealingQueueList}), each item with what it will run.
 */
public final class WorkItems {
  private WorkItems() {}

  /**
   * A queued work item.
   *
   * @param queue which queue: {@code global}, {@code global high priority}, {@code local 0x...}
   * @param address the item
   * @param type its type
   * @param callback the method it will run (a delegate's, a task's, an async method's MoveNext), or
   *     null when it names none (an {@code IThreadPoolWorkItem} of its own: its type says)
   */
  public record WorkItem(String queue, long address, String type, String callback) {
    /** The callback, else the item's type. */
    public String what() {
      return callback != null ? callback : type;
    }
  }

  /** Every item of every queue, global queues first. */
  public static List<WorkItem> of(ClrProcess p) {
    List<WorkItem> items = new ArrayList<>();
    Value global = Fields.staticValue(p, "System.Threading.ThreadPool", "s_workQueue");
    ClrObject workQueue =
        global instanceof Value.Reference r ? Fields.objectAt(p, r.address()) : null;
    if (workQueue != null) {
      queue(p, Fields.reference(workQueue, "highPriorityWorkItems"), "global high priority", items);
      queue(p, Fields.reference(workQueue, "workItems"), "global", items);
      queue(p, Fields.reference(workQueue, "lowPriorityWorkItems"), "global low priority", items);
      ClrObject assignable = Fields.object(p, workQueue, "_assignableWorkItemQueues");
      if (assignable != null && assignable.type().isArray()) {
        for (long i = 0; i < assignable.length(); i++) {
          if (assignable.element(i) instanceof Value.Reference q) {
            queue(p, q.address(), "global (assignable " + i + ")", items);
          }
        }
      }
    }
    String list = "System.Threading.ThreadPoolWorkQueue+WorkStealingQueueList";
    Value locals = Fields.staticValue(p, list, "s_queues");
    if (locals == null) {
      locals = Fields.staticValue(p, list, "_queues");
    }
    ClrObject queues = locals instanceof Value.Reference r ? Fields.objectAt(p, r.address()) : null;
    if (queues != null && queues.type().isArray()) {
      for (long i = 0; i < queues.length(); i++) {
        if (queues.element(i) instanceof Value.Reference q && !q.isNull()) {
          local(p, Fields.objectAt(p, q.address()), items);
        }
      }
    }
    return items;
  }

  private static void queue(ClrProcess p, long address, String name, List<WorkItem> items) {
    if (address == 0) {
      return;
    }
    for (Value v : ConcurrentCollections.queueItems(p, address)) {
      if (v instanceof Value.Reference r && !r.isNull()) {
        add(p, name, r.address(), items);
      }
    }
  }

  // A worker's own queue: m_array[m_headIndex .. m_tailIndex), indexes masked by m_mask.
  private static void local(ClrProcess p, ClrObject queue, List<WorkItem> items) {
    if (queue == null) {
      return;
    }
    ClrObject array = Fields.object(p, queue, "m_array");
    if (array == null || !array.type().isArray() || array.length() == 0) {
      return;
    }
    long mask = Fields.number(queue, "m_mask", array.length() - 1);
    long head = Fields.number(queue, "m_headIndex", 0);
    long tail = Fields.number(queue, "m_tailIndex", 0);
    String name = "local 0x" + Long.toHexString(queue.address());
    for (long i = head; i < tail && i - head < array.length(); i++) {
      if (array.element(i & mask) instanceof Value.Reference r && !r.isNull()) {
        add(p, name, r.address(), items);
      }
    }
  }

  private static void add(ClrProcess p, String queue, long address, List<WorkItem> items) {
    ClrObject item = Fields.objectAt(p, address);
    if (item == null) {
      return;
    }
    items.add(new WorkItem(queue, address, item.type().name(), callbackOf(p, item)));
  }

  /**
   * What a work item will run: a task's action or async method, a queued callback's delegate, an
   * async state machine box's MoveNext; null when it is a work item class of its own.
   */
  static String callbackOf(ClrProcess p, ClrObject item) {
    ClrValue machine = Fields.structOrObject(p, item, "StateMachine");
    if (machine != null) {
      return machine.type().name() + ".MoveNext()";
    }
    for (String field : new String[] {"m_action", "_callback", "_action"}) {
      ClrObject d = Fields.object(p, item, field);
      if (d != null && d.type().field("_methodPtr") != null) {
        return Callback.of(p, d).display();
      }
    }
    return null;
  }
}
