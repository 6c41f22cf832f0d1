package dev.clrscope.monitor.gc;

import java.time.Instant;
import java.util.List;

/**
 * Everything the runtime's GC events say about one GC, assembled by {@link GcAssembler}. A field
 * whose event was not seen (an older runtime, events dropped, the session ended mid-GC) is {@code
 * null}.
 *
 * @param number the GC's number since the process started (GCStart Count): GC.CollectionCount
 *     counts the same GCs
 * @param generation the condemned generation (GCStart Depth)
 * @param type NonConcurrent, Background or Foreground
 * @param reason why the GC ran, by name ({@link GcReason})
 * @param clientSequenceNumber the {@code Id} a tool passed with the GCHeapCollect keyword (.NET 9
 *     and later), else 0
 * @param startNanos GCStart's time, in nanoseconds from the trace's sync point
 * @param startUtc GCStart's wall-clock time
 * @param durationNanos GCStart to GCEnd
 * @param pauseNanos time the managed threads were stopped for this GC: SuspendEEBegin to
 *     RestartEEEnd, summed over its suspensions (a background GC has several)
 * @param suspendNanos of the pause, the time spent stopping the threads (SuspendEEBegin to
 *     SuspendEEEnd)
 * @param heapSizeBefore the heap's size when the GC started (GCPerHeapHistory, all heaps and
 *     generations)
 * @param heapSizeAfter the heap's size when it ended (GCHeapStats)
 * @param sizeAfter each generation's size when it ended (GCHeapStats)
 * @param promoted bytes that survived, summed over the generations and heaps (GCPerHeapHistory;
 *     GCHeapStats when that is missing, which leaves out the POH)
 * @param fragmentation free space inside the heap after the GC (GCPerHeapHistory)
 * @param pinnedObjects objects found pinned (GCHeapStats)
 * @param condemnedGeneration the generation condemned, from GCGlobalHeapHistory
 * @param condemnReasons heap 0's condemn reasons with the global conditions added
 * @param pauseMode the latency mode (GCGlobalHeapHistory)
 * @param memoryPressure the memory load the GC saw, in percent (GCGlobalHeapHistory)
 * @param globalMechanisms such as Compaction, Promotion (GCGlobalHeapHistory)
 * @param heaps each heap's history, in heap order; empty when not seen
 */
public record GcRecord(
    long number,
    int generation,
    String type,
    String reason,
    long clientSequenceNumber,
    long startNanos,
    Instant startUtc,
    Long durationNanos,
    Long pauseNanos,
    Long suspendNanos,
    Long heapSizeBefore,
    Long heapSizeAfter,
    GenerationSizes sizeAfter,
    Long promoted,
    Long fragmentation,
    Long pinnedObjects,
    Integer condemnedGeneration,
    CondemnReasons condemnReasons,
    String pauseMode,
    Long memoryPressure,
    List<String> globalMechanisms,
    List<HeapHistory> heaps) {

  /** Copies the lists. */
  public GcRecord {
    globalMechanisms = List.copyOf(globalMechanisms);
    heaps = List.copyOf(heaps);
  }

  /** The pause in milliseconds, or {@code null}. */
  public Double pauseMillis() {
    return millis(pauseNanos);
  }

  /** The suspension in milliseconds, or {@code null}. */
  public Double suspendMillis() {
    return millis(suspendNanos);
  }

  /** The time from GCStart to GCEnd in milliseconds, or {@code null}. */
  public Double durationMillis() {
    return millis(durationNanos);
  }

  /** Each generation's size when the GC started, summed over the heaps; {@code null} if unseen. */
  public GenerationSizes sizeBefore() {
    if (heaps.isEmpty()) {
      return null;
    }
    GenerationSizes sum = GenerationSizes.ZERO;
    for (HeapHistory h : heaps) {
      sum = sum.plus(h.sizeBefore());
    }
    return sum;
  }

  /** Whether code asked for this GC (GC.Collect, or a tool). */
  public boolean isInduced() {
    for (GcReason r : GcReason.values()) {
      if (r.name().equals(reason)) {
        return r.isInduced();
      }
    }
    return false;
  }

  private static Double millis(Long nanos) {
    return nanos == null ? null : nanos / 1e6;
  }
}
