package dev.clrscope.dac.analysis;

import dev.clrscope.dac.ClrObject;
import dev.clrscope.dac.ClrProcess;
import dev.clrscope.dac.ClrValue;
import dev.clrscope.dac.TargetException;
import dev.clrscope.dac.TargetException.Problem;
import dev.clrscope.dac.Value;
import java.util.ArrayList;
import java.util.List;

/**
 * The items of a {@code ConcurrentQueue<T>} and the entries of a {@code ConcurrentDictionary<K,
 * V>}, read from their internals (the triage extensions' {@code dumpconcurrentqueue} and {@code
 * dumpconcurrentdictionary}).
 */
public final class ConcurrentCollections {
  private ConcurrentCollections() {}

  /** How many items or entries are read at most: a damaged list never loops for ever. */
  static final int MAX_ITEMS = 10_000_000;

  /**
   * The items of the queue at {@code address}, oldest first: each segment's slots from its head to
   * its tail.
   *
   * @throws TargetException {@link Problem#NOT_AN_OBJECT} when it is not a ConcurrentQueue
   */
  public static List<Value> queueItems(ClrProcess p, long address) {
    ClrObject queue = p.object(address);
    if (!queue.type().name().startsWith("System.Collections.Concurrent.ConcurrentQueue<")) {
      throw notA(queue, "ConcurrentQueue");
    }
    List<Value> items = new ArrayList<>();
    ClrObject segment = Fields.object(p, queue, "_head");
    for (int guard = 0; segment != null && guard < 1_000_000; guard++) {
      segmentItems(p, segment, items);
      segment = Fields.object(p, segment, "_nextSegment");
    }
    return items;
  }

  private static void segmentItems(ClrProcess p, ClrObject segment, List<Value> items) {
    ClrObject slots = Fields.object(p, segment, "_slots");
    ClrValue headAndTail = Fields.struct(segment, "_headAndTail");
    if (slots == null || headAndTail == null) {
      return;
    }
    long mask = Fields.number(segment, "_slotsMask", slots.length() - 1);
    long head = Fields.number(headAndTail, "Head", 0);
    long tail = Fields.number(headAndTail, "Tail", 0);
    // A segment frozen for enqueues has its tail moved on by twice its length (FreezeOffset).
    if (Fields.number(segment, "_frozenForEnqueues", 0) != 0) {
      tail -= 2 * slots.length();
    }
    for (long i = head; i < tail && i - head < slots.length() && items.size() < MAX_ITEMS; i++) {
      Value slot = slots.element(i & mask);
      if (slot instanceof Value.Embedded e) {
        Value item = Fields.value(e.value(), "Item");
        if (item != null) {
          items.add(item);
        }
      }
    }
  }

  /** An entry of a dictionary. */
  public record Entry(Value key, Value value) {}

  /**
   * The entries of the dictionary at {@code address}, bucket by bucket.
   *
   * @throws TargetException {@link Problem#NOT_AN_OBJECT} when it is not a ConcurrentDictionary
   */
  public static List<Entry> dictionaryEntries(ClrProcess p, long address) {
    ClrObject dictionary = p.object(address);
    if (!dictionary
        .type()
        .name()
        .startsWith("System.Collections.Concurrent.ConcurrentDictionary<")) {
      throw notA(dictionary, "ConcurrentDictionary");
    }
    List<Entry> entries = new ArrayList<>();
    ClrObject tables = Fields.object(p, dictionary, "_tables");
    ClrObject buckets = Fields.object(p, tables, "_buckets");
    if (buckets == null) {
      return entries;
    }
    for (long b = 0; b < buckets.length() && entries.size() < MAX_ITEMS; b++) {
      Value bucket = buckets.element(b);
      // .NET 8+: a VolatileNode struct around the node; before: the node itself.
      long node =
          bucket instanceof Value.Embedded e
              ? Fields.reference(e.value(), "_node")
              : bucket instanceof Value.Reference r ? r.address() : 0;
      for (int guard = 0; node != 0 && guard < MAX_ITEMS; guard++) {
        ClrObject n = Fields.objectAt(p, node);
        if (n == null) {
          break;
        }
        entries.add(new Entry(Fields.value(n, "_key"), Fields.value(n, "_value")));
        node = Fields.reference(n, "_next");
      }
    }
    return entries;
  }

  private static TargetException notA(ClrObject o, String what) {
    return new TargetException(
        Problem.NOT_AN_OBJECT,
        "0x"
            + Long.toHexString(o.address())
            + " is not a "
            + what
            + ": it is a "
            + o.type().name());
  }
}
