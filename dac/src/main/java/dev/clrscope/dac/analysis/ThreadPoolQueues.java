package dev.clrscope.dac.analysis;

import dev.clrscope.dac.ClrField;
import dev.clrscope.dac.ClrHeap;
import dev.clrscope.dac.ClrObject;
import dev.clrscope.dac.ClrValue;
import dev.clrscope.dac.Value;
import java.util.ArrayList;
import java.util.List;

/**
 * The work waiting for the thread pool (the {@code threadpoolqueue} command): the global queues
 * ({@code ThreadPool.s_workQueue}: normal, high and low priority, the assignable ones) and each
 * worker's local queue, every item with what it will call.
 */
public final class ThreadPoolQueues {
  private static final int MAX_ITEMS = 10_000_000;

  private ThreadPoolQueues() {}

  /**
   * A queued work item.
   *
   * @param address the item (a Task, a QueueUserWorkItemCallback, an async method's box...)
   * @param type its type
   * @param queue where it waits: {@code global}, {@code global high priority}, {@code global low
   *     priority}, {@code assignable N}, {@code local N}
   * @param callback the method it will call, or null when not known
   * @param state the state it passes, or 0
   */
  public record WorkItem(long address, String type, String queue, String callback, long state) {}

  /** Every queued work item; none when the thread pool was never used. */
  public static List<WorkItem> all(ClrHeap heap) {
    List<WorkItem> out = new ArrayList<>();
    long workQueue = RuntimeStatics.reference(heap, "System.Threading.ThreadPool", "s_workQueue");
    if (workQueue != 0) {
      ClrObject q = heap.object(workQueue);
      global(heap, q, "workItems", "global", out);
      global(heap, q, "highPriorityWorkItems", "global high priority", out);
      global(heap, q, "lowPriorityWorkItems", "global low priority", out);
      long assignable = q.referenceField("_assignableWorkItemQueues");
      if (assignable != 0) {
        ClrObject queues = heap.object(assignable);
        for (long i = 0; i < queues.length(); i++) {
          long each = reference(queues.element(i));
          if (each != 0) {
            add(
                heap,
                ConcurrentCollections.queueItems(heap, heap.object(each)),
                "assignable " + i,
                out);
          }
        }
      }
    }
    long locals =
        RuntimeStatics.reference(
            heap,
            "System.Threading.ThreadPoolWorkQueue+WorkStealingQueueList",
            "s_queues",
            "_queues");
    if (locals != 0) {
      ClrObject queues = heap.object(locals);
      for (long i = 0; i < queues.length(); i++) {
        long each = reference(queues.element(i));
        if (each == 0) {
          continue;
        }
        ClrObject local = heap.object(each);
        ClrObject array = local.objectField("m_array");
        int mask = local.intField("m_mask");
        List<Value> items = new ArrayList<>();
        for (long at = local.intField("m_headIndex");
            at < local.intField("m_tailIndex") && items.size() < MAX_ITEMS;
            at++) {
          items.add(array.element(at & mask));
        }
        add(heap, items, "local " + i, out);
      }
    }
    return out;
  }

  private static void global(
      ClrHeap heap, ClrObject workQueue, String field, String name, List<WorkItem> out) {
    long queue = workQueue.referenceField(field);
    if (queue != 0) {
      add(heap, ConcurrentCollections.queueItems(heap, heap.object(queue)), name, out);
    }
  }

  private static void add(ClrHeap heap, List<Value> items, String queue, List<WorkItem> out) {
    for (Value v : items) {
      long address = reference(v);
      if (address == 0) {
        continue;
      }
      ClrObject item = heap.object(address);
      String callback = null;
      long state = 0;
      String type = item.type().name();
      if (item.type().field("_callback") != null) {
        // QueueUserWorkItemCallback and its generic kin: a delegate and its state.
        ClrObject d = item.objectField("_callback");
        callback = d == null ? null : heap.runtime().delegateMethod(d);
        ClrField s = item.type().field("_state");
        state = s != null && item.value(s) instanceof Value.Reference r ? r.address() : 0;
      } else if (type.contains("+AsyncStateMachineBox<")) {
        ClrValue sm = AsyncStateMachines.stateMachine(heap, item);
        if (sm != null) {
          callback = AsyncStateMachines.methodOf(sm.type().name());
        }
      } else if (item.type().field("m_action") != null) {
        // A Task: its delegate and state object.
        ClrObject d = item.objectField("m_action");
        callback = d == null ? null : heap.runtime().delegateMethod(d);
        state = item.referenceField("m_stateObject");
      }
      out.add(new WorkItem(address, type, queue, callback, state));
    }
  }

  private static long reference(Value v) {
    return v instanceof Value.Reference r ? r.address() : 0;
  }
}
