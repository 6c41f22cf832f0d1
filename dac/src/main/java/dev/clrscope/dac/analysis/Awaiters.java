package dev.clrscope.dac.analysis;

import dev.clrscope.dac.ClrField;
import dev.clrscope.dac.ClrHeap;
import dev.clrscope.dac.ClrValue;
import dev.clrscope.dac.TargetException;
import dev.clrscope.dac.Value;

/**
 * What a suspended async method awaits ({@code dumpasync}'s "awaiting"): its state machine's
 * awaiter fields ({@code <>u__N}) hold it, as a task inside an awaiter struct ({@code
 * TaskAwaiter.m_task}, a configured awaiter's inner awaiter, a {@code ValueTaskAwaiter}'s ValueTask
 * object) or as a reference of their own.
 */
public final class Awaiters {
  private Awaiters() {}

  /** How deep into nested awaiter structs to look. */
  private static final int DEPTH = 4;

  /**
   * The object the async method whose box is at {@code box} awaits, or 0 when it awaits nothing
   * (running, done, or an awaiter that holds no object).
   */
  public static long awaited(ClrHeap heap, long box) {
    try {
      ClrValue fields = AsyncStateMachines.stateMachine(heap, heap.object(box));
      if (fields == null) {
        return 0;
      }
      for (ClrField f : fields.type().fields()) {
        if (f.name().startsWith("<>u__")) {
          long held = held(fields.value(f), 0);
          if (held != 0) {
            return held;
          }
        }
      }
      return 0;
    } catch (TargetException e) {
      return 0;
    }
  }

  // The first non-null reference in a value, looking into structs a few levels deep.
  private static long held(Value v, int depth) {
    if (v instanceof Value.Reference r) {
      return r.address();
    }
    if (v instanceof Value.Embedded e && depth < DEPTH) {
      for (ClrValue.FieldValue f : e.value().fieldValues()) {
        long found = held(f.value(), depth + 1);
        if (found != 0) {
          return found;
        }
      }
    }
    return 0;
  }

  private static final String BOX = "+AsyncStateMachineBox<";

  /**
   * A type's name for a person: an async method's box as {@code async App.Worker.RunAsync}, any
   * other type as it is.
   */
  public static String shortName(String type) {
    if (type == null) {
      return null;
    }
    int box = type.indexOf(BOX);
    if (box < 0 || !type.endsWith(">")) {
      return type;
    }
    return "async "
        + AsyncStateMachines.methodOf(type.substring(box + BOX.length(), type.length() - 1));
  }
}
