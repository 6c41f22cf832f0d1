package dev.clrscope.heapwalk;

/**
 * The objects of one type in a snapshot.
 *
 * @param type the type's name as the runtime writes it
 * @param count how many objects
 * @param totalSize the sum of their sizes, in bytes (not the size of one)
 * @param retainedSize what they retain together: the sum of the retained sizes of those not
 *     dominated by another object of the type, so an object is counted once however deep a chain of
 *     the type holds it
 */
public record TypeStatistics(String type, long count, long totalSize, long retainedSize) {}
