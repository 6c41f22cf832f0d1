package dev.clrscope.heapwalk;

/**
 * The objects of one type in a snapshot.
 *
 * @param type the type's name as the runtime writes it
 * @param count how many objects
 * @param totalSize the sum of their sizes, in bytes (not the size of one)
 */
public record TypeStatistics(String type, long count, long totalSize) {}
