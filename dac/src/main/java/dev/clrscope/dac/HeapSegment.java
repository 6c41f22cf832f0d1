package dev.clrscope.dac;

/**
 * One segment (a region, with regions) of a GC heap.
 *
 * @param heap the index of the GC heap it belongs to
 * @param address the segment's bookkeeping address (SOS's "segment")
 * @param kind what it holds
 * @param start the first object's address
 * @param end where its objects end (the allocated mark)
 * @param committed the end of its committed memory
 * @param reserved the end of its reserved memory
 * @param gen1Start for the ephemeral segment, where generation 1 starts, else 0
 * @param gen0Start for the ephemeral segment, where generation 0 starts, else 0
 * @param flags the GC's segment flags (1: read-only)
 */
public record HeapSegment(
    int heap,
    long address,
    SegmentKind kind,
    long start,
    long end,
    long committed,
    long reserved,
    long gen1Start,
    long gen0Start,
    long flags) {
  /** Bytes of objects (end - start). */
  public long allocatedBytes() {
    return end - start;
  }

  /** Bytes committed from the segment's start. */
  public long committedBytes() {
    return Math.max(0, committed - start);
  }

  /** Whether {@code address} is inside this segment's objects. */
  public boolean contains(long address) {
    return Long.compareUnsigned(address, start) >= 0 && Long.compareUnsigned(address, end) < 0;
  }

  /** The generation of an object at {@code address} in this segment. */
  public Generation generationOf(long address) {
    return switch (kind) {
      case GEN0 -> Generation.GEN0;
      case GEN1 -> Generation.GEN1;
      case GEN2 -> Generation.GEN2;
      case LARGE -> Generation.LARGE;
      case PINNED -> Generation.PINNED;
      case FROZEN -> Generation.FROZEN;
      case EPHEMERAL ->
          Long.compareUnsigned(address, gen0Start) >= 0
              ? Generation.GEN0
              : Long.compareUnsigned(address, gen1Start) >= 0 ? Generation.GEN1 : Generation.GEN2;
    };
  }
}
