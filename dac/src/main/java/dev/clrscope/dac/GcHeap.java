package dev.clrscope.dac;

import java.util.List;

/**
 * One GC heap (workstation GC has one; server GC one per heap).
 *
 * @param index its number
 * @param address the server GC's heap address (0 for workstation GC)
 * @param allocated the ephemeral allocation mark
 * @param generations each generation's start (index 0-2, then LOH, then POH when present)
 * @param segments its segments or regions
 */
public record GcHeap(
    int index,
    long address,
    long allocated,
    List<GenerationStart> generations,
    List<HeapSegment> segments) {
  /**
   * A generation as the GC's generation table has it.
   *
   * @param startSegment its first segment or region
   * @param allocationStart where it starts (segments: in the ephemeral segment)
   * @param allocContextPtr its allocation context's pointer (generation 0 only)
   * @param allocContextLimit its allocation context's limit (generation 0 only)
   */
  public record GenerationStart(
      long startSegment, long allocationStart, long allocContextPtr, long allocContextLimit) {}

  /** Bytes of objects in segments of {@code kind}, or of generation {@code g} in any segment. */
  public long sizeOf(Generation g) {
    long sum = 0;
    for (HeapSegment s : segments) {
      sum += bytesOf(s, g);
    }
    return sum;
  }

  static long bytesOf(HeapSegment s, Generation g) {
    if (s.kind() != SegmentKind.EPHEMERAL) {
      return s.generationOf(s.start()) == g ? s.allocatedBytes() : 0;
    }
    return switch (g) {
      case GEN0 -> s.end() - s.gen0Start();
      case GEN1 -> s.gen0Start() - s.gen1Start();
      case GEN2 -> s.gen1Start() - s.start();
      default -> 0;
    };
  }
}
