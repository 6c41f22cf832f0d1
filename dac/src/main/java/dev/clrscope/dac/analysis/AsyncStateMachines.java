package dev.clrscope.dac.analysis;

import dev.clrscope.dac.ClrField;
import dev.clrscope.dac.ClrObject;
import dev.clrscope.dac.ClrProcess;
import dev.clrscope.dac.ClrType;
import dev.clrscope.dac.ClrValue;
import dev.clrscope.dac.Value;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The async methods in flight (SOS's {@code dumpasync}): every async state machine box on the heap,
 * with its method's state machine, the state it is suspended in, the task or awaitable it awaits,
 * and the box that continues when it completes (its caller, awaiting it).
 */
public final class AsyncStateMachines {
  private AsyncStateMachines() {}

  /**
   * An async method in flight.
   *
   * @param address its box (a Task)
   * @param boxType the box's type
   * @param stateMachine the compiler's state machine type ({@code App.Worker+<RunAsync>d__4})
   * @param state the state machine's {@code <>1__state}: -1 running or not started, -2 done, 0 or
   *     more suspended at that await
   * @param status its task's status
   * @param awaiting what it awaits (a task or another awaitable), or 0
   * @param awaitingType that object's type, or null
   * @param continuation what runs when it completes (a caller's box, a delegate, a list of them),
   *     or 0
   * @param continuationType that object's type, or null
   */
  public record AsyncMethod(
      long address,
      String boxType,
      String stateMachine,
      int state,
      String status,
      long awaiting,
      String awaitingType,
      long continuation,
      String continuationType) {
    /** The method: the state machine's name as written, {@code App.Worker.RunAsync}. */
    public String method() {
      return methodOf(stateMachine);
    }
  }

  /** The async method a state machine type is compiled from ({@code App.Worker.RunAsync}). */
  static String methodOf(String stateMachine) {
    int plus = stateMachine.lastIndexOf('+');
    int open = stateMachine.indexOf('<', plus + 1);
    int close = stateMachine.indexOf('>', open + 1);
    if (plus < 0 || open < 0 || close < 0) {
      return stateMachine;
    }
    return stateMachine.substring(0, plus) + "." + stateMachine.substring(open + 1, close);
  }

  private static final String BOX = "+AsyncStateMachineBox<";

  /**
   * A type's name for a person: an async state machine box as {@code async App.Worker.RunAsync},
   * any other type as it is.
   */
  public static String shortName(String type) {
    if (type == null) {
      return null;
    }
    int box = type.indexOf(BOX);
    if (box < 0 || !type.endsWith(">")) {
      return type;
    }
    return "async " + methodOf(type.substring(box + BOX.length(), type.length() - 1));
  }

  /** Every async state machine box on the heap, in heap order. */
  public static List<AsyncMethod> of(ClrProcess p) {
    Map<ClrType, Boolean> isBox = new IdentityHashMap<>();
    List<Long> boxes = new ArrayList<>();
    p.walkHeap(
        o -> {
          Boolean box = isBox.get(o.type());
          if (box == null) {
            box =
                o.type().name().contains("AsyncStateMachineBox<")
                    && o.type().field("StateMachine") != null;
            isBox.put(o.type(), box);
          }
          if (box) {
            boxes.add(o.address());
          }
        });
    List<AsyncMethod> methods = new ArrayList<>();
    for (long address : boxes) {
      ClrObject box = Fields.objectAt(p, address);
      ClrValue machine = box == null ? null : Fields.structOrObject(p, box, "StateMachine");
      if (machine == null) {
        continue;
      }
      long awaiting = awaited(p, machine);
      ClrObject awaited = Fields.objectAt(p, awaiting);
      ClrObject next = Fields.object(p, box, "m_continuationObject");
      methods.add(
          new AsyncMethod(
              address,
              box.type().name(),
              machine.type().name(),
              (int) Fields.number(machine, "<>1__state", -1),
              TaskState.of((int) Fields.number(box, "m_stateFlags", 0)).status(),
              awaiting,
              awaited == null ? null : awaited.type().name(),
              next == null ? 0 : next.address(),
              next == null ? null : next.type().name()));
    }
    return methods;
  }

  /**
   * What a suspended state machine awaits: the awaiter fields {@code <>u__N} hold it, as a task
   * inside an awaiter struct ({@code TaskAwaiter.m_task}, a configured awaiter's inner awaiter, a
   * {@code ValueTaskAwaiter}'s ValueTask object) or as a reference of their own.
   */
  private static long awaited(ClrProcess p, ClrValue machine) {
    for (ClrField f : machine.type().fields()) {
      if (!f.name().startsWith("<>u__")) {
        continue;
      }
      long found = held(p, Fields.value(machine, f.name()), 0);
      if (found != 0) {
        return found;
      }
    }
    return 0;
  }

  // The first non-null reference in a value, looking into structs a few levels deep.
  private static long held(ClrProcess p, Value v, int depth) {
    if (v instanceof Value.Reference r) {
      return r.address();
    }
    if (v instanceof Value.Embedded e && depth < 4) {
      for (ClrValue.FieldValue f : e.value().fieldValues()) {
        long found = held(p, f.value(), depth + 1);
        if (found != 0) {
          return found;
        }
      }
    }
    return 0;
  }
}
