package dev.clrscope.dac;

/**
 * A place where the heap walk could not go on in a segment: the rest of that segment was skipped.
 *
 * @param segment the segment
 * @param address the address where the walk stopped
 * @param reason what was wrong there
 */
public record HeapProblem(HeapSegment segment, long address, String reason) {}
