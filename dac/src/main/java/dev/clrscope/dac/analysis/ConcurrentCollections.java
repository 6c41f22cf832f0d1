package dev.clrscope.dac.analysis;

import dev.clrscope.dac.ClrHeap;
import dev.clrscope.dac.ClrObject;
import dev.clrscope.dac.ClrValue;
import dev.clrscope.dac.Value;
import java.util.ArrayList;
import java.util.List;

/**
 * The items of {@code ConcurrentQueue<T>} and the entries of {@code ConcurrentDictionary<K,V>} (the
 * {@code dcq} and {@code dcd} commands), read from their fields as .NET 8-10 lay them out.
 */
public final class ConcurrentCollections {
  private static final int MAX_ITEMS = 10_000_000;

  private ConcurrentCollections() {}

  /** A dictionary entry. */
  public record Entry(Value key, Value value) {}

  /**
   * The items of a {@code ConcurrentQueue<T>}, head first: segment after segment, the positions
   * from each segment's head to its tail whose slot holds an item.
   *
   * <p>A segment's head and tail are positions that only grow (a slot is {@code position &
   * _slotsMask}). A segment frozen for enqueues (a full one with a newer segment after it) has its
   * tail moved on by twice its length, so that no enqueue can succeed there: its items end that
   * much earlier. A slot's sequence number says what it holds: {@code position + 1} once an item
   * was put there, {@code position + length} once it was taken out; a slot reserved but not yet
   * written (an enqueue in flight when the process stopped) holds {@code position}, no item yet.
   */
  public static List<Value> queueItems(ClrHeap heap, ClrObject queue) {
    requireType(queue, "System.Collections.Concurrent.ConcurrentQueue<");
    List<Value> items = new ArrayList<>();
    int segments = 0;
    for (ClrObject segment = queue.objectField("_head");
        segment != null && segments++ < 1_000_000 && items.size() < MAX_ITEMS;
        segment = segment.objectField("_nextSegment")) {
      ClrObject slots = segment.objectField("_slots");
      int length = (int) slots.length();
      int mask = segment.intField("_slotsMask");
      ClrValue headAndTail = segment.structField("_headAndTail");
      int head = headAndTail.intField("Head");
      int tail = headAndTail.intField("Tail");
      if (segment.booleanField("_frozenForEnqueues")) {
        tail -= 2 * length;
      }
      // Positions are ints that may wrap: their differences are what count.
      int count = Math.min(Math.max(tail - head, 0), length);
      for (int i = 0; i < count && items.size() < MAX_ITEMS; i++) {
        int position = head + i;
        ClrValue slot = ((Value.Embedded) slots.element(position & mask)).value();
        if (slot.intField("SequenceNumber") == position + 1) {
          items.add(slot.value("Item"));
        }
      }
    }
    return items;
  }

  /** The entries of a {@code ConcurrentDictionary<K,V>}, bucket by bucket. */
  public static List<Entry> dictionaryEntries(ClrHeap heap, ClrObject dictionary) {
    requireType(dictionary, "System.Collections.Concurrent.ConcurrentDictionary<");
    ClrObject tables = dictionary.objectField("_tables");
    ClrObject buckets = tables.objectField("_buckets");
    List<Entry> entries = new ArrayList<>();
    for (long b = 0; b < buckets.length() && entries.size() < MAX_ITEMS; b++) {
      Value bucket = buckets.element(b);
      // .NET 8+: VolatileNode structs; before: the nodes themselves.
      long node =
          bucket instanceof Value.Embedded e
              ? e.value().referenceField("_node")
              : ((Value.Reference) bucket).address();
      for (int chain = 0; node != 0 && chain < 1_000_000; chain++) {
        ClrObject n = heap.object(node);
        entries.add(new Entry(n.value("_key"), n.value("_value")));
        node = n.referenceField("_next");
      }
    }
    return entries;
  }

  private static void requireType(ClrObject o, String prefix) {
    if (!o.type().name().startsWith(prefix)) {
      throw new IllegalArgumentException(o + " is not a " + prefix + "...>");
    }
  }
}
