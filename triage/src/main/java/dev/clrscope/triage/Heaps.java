package dev.clrscope.triage;

import dev.clrscope.heapwalk.HeapSnapshot;
import java.util.List;
import java.util.function.LongPredicate;

/** Reads of the heap graph more than one detector makes. */
final class Heaps {
  private Heaps() {}

  /** How many paths to objects of its type are looked through for one object's. */
  private static final int PATHS_LOOKED_AT = 1_000;

  /**
   * The shortest path from a root to object {@code i}: the root's step, then the objects; empty
   * when none of the nearest objects of its type is it.
   */
  static List<HeapSnapshot.PathStep> pathTo(HeapSnapshot h, int i) {
    String type = h.typeNameOf(i);
    int typeNumber = h.typeOf(i);
    long address = h.addressOf(i);
    // The search from the roots ends once it met every object of the type (or enough of them):
    // a type of one object, the usual suspect, ends it at that object.
    int instances = 0;
    for (int k = 0; k < h.objectCount() && instances < PATHS_LOOKED_AT; k++) {
      if (h.typeOf(k) == typeNumber) {
        instances++;
      }
    }
    for (List<HeapSnapshot.PathStep> p : h.pathsTo(type::equals, instances)) {
      if (p.get(p.size() - 1).address() == address) {
        return p;
      }
    }
    return List.of();
  }

  /** Whether an address is a reachable object of the graph: live, not garbage. */
  static LongPredicate live(HeapSnapshot heap) {
    return address -> {
      int i = heap.indexOf(address);
      return i >= 0 && heap.isReachable(i);
    };
  }
}
