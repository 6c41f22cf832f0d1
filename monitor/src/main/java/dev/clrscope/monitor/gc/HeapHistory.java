package dev.clrscope.monitor.gc;

import java.util.List;

/**
 * What one GC heap reported about one GC (GCPerHeapHistory). Server GC has a heap per core;
 * workstation GC has one.
 *
 * @param heapIndex the heap's number
 * @param budget the allocation budget each generation was given after the GC ({@code
 *     NewAllocation})
 * @param sizeBefore each generation's size when the GC started
 * @param sizeAfter each generation's size when it ended
 * @param survived the bytes of each generation that survived (pinned and not pinned)
 * @param fragmentationAfter free space left inside each generation after the GC (free list and free
 *     objects)
 * @param condemnReasons this heap's condemn reasons
 * @param compactReason why the heap compacted, or {@code null} if it swept
 * @param expandMechanism how the heap grew, or {@code null}
 */
public record HeapHistory(
    int heapIndex,
    GenerationSizes budget,
    GenerationSizes sizeBefore,
    GenerationSizes sizeAfter,
    GenerationSizes survived,
    GenerationSizes fragmentationAfter,
    CondemnReasons condemnReasons,
    String compactReason,
    String expandMechanism) {

  /** The per-heap table's rows: one per generation. */
  public static final List<String> GENERATION_NAMES = List.of("gen0", "gen1", "gen2", "loh", "poh");
}
