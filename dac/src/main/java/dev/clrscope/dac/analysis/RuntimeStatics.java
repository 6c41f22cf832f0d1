package dev.clrscope.dac.analysis;

import dev.clrscope.dac.ClrField;
import dev.clrscope.dac.ClrHeap;
import dev.clrscope.dac.ClrType;
import dev.clrscope.dac.TargetException;
import dev.clrscope.dac.Value;
import java.util.List;

/**
 * The static fields of the runtime's own types that the analyses start from (the thread pool's
 * queues, the timer queues), under each name the runtime versions give them: .NET 8's {@code
 * WorkStealingQueueList._queues} is .NET 9's {@code s_queues}.
 */
final class RuntimeStatics {
  private RuntimeStatics() {}

  /**
   * The object a static reference field holds, or 0 when its type is not loaded (the process never
   * used it) or the field holds nothing yet.
   *
   * @param names the field's names, newest runtime's first
   * @throws TargetException when the type is loaded but has none of those fields: a runtime laid
   *     out in a way this analysis does not know, named with its version
   */
  static long reference(ClrHeap heap, String typeName, String... names) {
    ClrType type = heap.runtime().typeByName(typeName);
    if (type == null) {
      return 0;
    }
    for (String name : names) {
      ClrField f = type.staticField(name);
      if (f != null) {
        return heap.runtime().staticValue(type, f) instanceof Value.Reference r ? r.address() : 0;
      }
    }
    throw new TargetException(
        TargetException.Problem.DAC_FAILED,
        heap.runtime().info().runtimeName()
            + "'s "
            + typeName
            + " has no static field "
            + String.join(" or ", List.of(names))
            + ", which this command reads (it knows .NET 8 to 10): the runtime lays it out"
            + " differently");
  }
}
