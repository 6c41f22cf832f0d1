package dev.clrscope.monitor.alloc;

/**
 * What the allocation ticks say of one type.
 *
 * @param type the type's name as the runtime gives it, generics readable
 * @param large whether these are large-object-heap allocations (AllocationKind 1)
 * @param ticks allocation ticks whose object was of this type (a tick fires after about 100 KB of
 *     allocations, on the object that crossed the threshold)
 * @param sampledBytes the sizes of those sampled objects, added up
 * @param estimatedBytes the bytes the ticks stand for (each tick's AllocationAmount: what the
 *     thread allocated since its previous tick, about 100 KB), an estimate of the type's total
 */
public record TypeAllocations(
    String type, boolean large, long ticks, long sampledBytes, long estimatedBytes) {}
