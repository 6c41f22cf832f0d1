package dev.clrscope.monitor.alloc;

import java.util.List;

/**
 * What {@link AllocationSampler} saw.
 *
 * @param types per type and heap (small or large), most estimated bytes first
 * @param stacks per call stack and heap, most estimated bytes first
 * @param ticks allocation ticks seen
 * @param estimatedBytes the bytes they stand for
 * @param ticksWithoutStack ticks that carried no stack
 */
public record AllocationSummary(
    List<TypeAllocations> types,
    List<StackAllocations> stacks,
    long ticks,
    long estimatedBytes,
    long ticksWithoutStack) {}
