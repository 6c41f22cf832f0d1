package dev.clrscope.dac;

/**
 * What a heap walk saw.
 *
 * @param objects objects visited (free space included)
 * @param bytes their sizes' sum
 * @param segments segments walked
 * @param problems where the walk had to skip the rest of a segment, and the bytes it did not walk
 * @param elapsedNanos how long the walk took
 */
public record WalkSummary(
    long objects, long bytes, int segments, HeapProblems problems, long elapsedNanos) {
  /** Whether every segment was walked to its end. */
  public boolean complete() {
    return problems.isEmpty();
  }
}
