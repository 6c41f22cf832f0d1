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
  /** Two walks of consecutive parts of a heap as one, {@code lower}'s first. */
  static WalkSummary concat(WalkSummary lower, WalkSummary upper) {
    return new WalkSummary(
        lower.objects + upper.objects,
        lower.bytes + upper.bytes,
        lower.segments + upper.segments,
        HeapProblems.concat(lower.problems, upper.problems),
        Math.max(lower.elapsedNanos, upper.elapsedNanos));
  }

  /** Whether every segment was walked to its end. */
  public boolean complete() {
    return problems.isEmpty();
  }
}
