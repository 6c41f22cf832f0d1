package dev.clrscope.dac.analysis;

import dev.clrscope.dac.ClrField;
import dev.clrscope.dac.ClrHeap;
import dev.clrscope.dac.ClrObject;
import dev.clrscope.dac.ClrValue;
import dev.clrscope.dac.Value;
import java.util.ArrayList;
import java.util.List;

/**
 * The async methods in flight (the {@code dumpasync} command): every {@code AsyncStateMachineBox}
 * on the heap, with its method, the state machine's state, its task status, and what will run when
 * it completes.
 */
public final class AsyncStateMachines {
  private AsyncStateMachines() {}

  /**
   * One async method's state.
   *
   * @param box the AsyncStateMachineBox (the method's task)
   * @param stateMachineType the compiler-made state machine type ({@code App.C+<M>d__3})
   * @param method the async method ({@code App.C.M}), from the state machine's type name
   * @param state the state machine's {@code <>1__state}: -1 running or not started, -2 done, N
   *     suspended at await N
   * @param status the task's status
   * @param continuation what runs when it completes (an object address), or 0
   */
  public record AsyncMethod(
      long box,
      String stateMachineType,
      String method,
      int state,
      String status,
      long continuation) {}

  /** Every async method in flight, in heap order. */
  public static List<AsyncMethod> all(ClrHeap heap) {
    List<Long> boxes = new ArrayList<>();
    heap.walk(
        o -> {
          String n = o.type().name();
          if (n.contains("+AsyncStateMachineBox<")
              && n.startsWith("System.Runtime.CompilerServices.")) {
            boxes.add(o.address());
          }
        });
    List<AsyncMethod> out = new ArrayList<>();
    for (long address : boxes) {
      ClrObject box = heap.object(address);
      ClrValue machine = stateMachine(heap, box);
      if (machine == null) {
        continue;
      }
      ClrField stateField = machine.type().field("<>1__state");
      int state =
          stateField == null
              ? Integer.MIN_VALUE
              : ((Value.Primitive) machine.value(stateField)).asInt();
      int flags = box.intField("m_stateFlags");
      out.add(
          new AsyncMethod(
              address,
              machine.type().name(),
              methodOf(machine.type().name()),
              state,
              TaskStates.status(flags),
              box.referenceField("m_continuationObject")));
    }
    return out;
  }

  /**
   * The state machine an async method's box holds: a struct inside the box (a release build), or an
   * object of its own that the box references (a debug build makes state machines classes); null
   * when the box holds none.
   */
  public static ClrValue stateMachine(ClrHeap heap, ClrObject box) {
    ClrField field = box.type().field("StateMachine");
    if (field == null) {
      return null;
    }
    Value v = box.value(field);
    if (v instanceof Value.Embedded e) {
      return e.value();
    }
    return v instanceof Value.Reference r && !r.isNull() ? heap.object(r.address()) : null;
  }

  /**
   * The async method a state machine's type stands for: {@code App.C+<M>d__3} is {@code App.C.M}.
   */
  public static String methodOf(String n) {
    int plus = n.lastIndexOf("+<");
    int close = n.indexOf('>', plus + 2);
    if (plus < 0 || close < 0) {
      return n;
    }
    return n.substring(0, plus) + "." + n.substring(plus + 2, close);
  }
}
