package dev.clrscope.dac;

import java.util.List;

/**
 * What a heap walk saw.
 *
 * @param objects objects visited (free space included)
 * @param bytes their sizes' sum
 * @param segments segments walked
 * @param problems where the walk had to skip the rest of a segment (at most 100 are kept)
 * @param skippedProblems problems beyond those kept
 * @param elapsedNanos how long the walk took
 */
public record WalkSummary(
    long objects,
    long bytes,
    int segments,
    List<HeapProblem> problems,
    int skippedProblems,
    long elapsedNanos) {
  /** Whether every segment was walked to its end. */
  public boolean complete() {
    return problems.isEmpty() && skippedProblems == 0;
  }
}
