package dev.clrscope.monitor.alloc;

import dev.clrscope.symbols.Frame;
import java.util.List;

/**
 * One allocating call stack.
 *
 * @param frames the frames, innermost first, with lines where known
 * @param large whether these are large-object-heap allocations
 * @param topType the type most of its ticks allocated
 * @param ticks allocation ticks with this stack
 * @param estimatedBytes the bytes those ticks stand for
 */
public record StackAllocations(
    List<Frame> frames, boolean large, String topType, long ticks, long estimatedBytes) {}
