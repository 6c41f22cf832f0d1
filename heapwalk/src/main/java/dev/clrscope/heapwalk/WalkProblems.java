package dev.clrscope.heapwalk;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a snapshot's walk could not read or could not trust, so that a smaller heap is never taken
 * for a whole one: each problem in words, and for an exact walk through the DAC the places it had
 * to stop, counted by kind, with the bytes of the heap it did not walk.
 *
 * @param details each problem in words (lost events, references that do not add up, where a walk
 *     stopped), in the order they were met
 * @param byKind how many times an exact walk stopped, per kind ({@code typeUnreadable}, {@code
 *     memoryMissing}, {@code segmentMissing}, {@code objectPastEnd}): empty when it never did
 * @param bytesNotWalked the bytes of the heap's segments an exact walk did not walk
 */
public record WalkProblems(List<String> details, Map<String, Integer> byKind, long bytesNotWalked) {
  /** Nothing wrong. */
  public static final WalkProblems NONE = new WalkProblems(List.of(), Map.of(), 0);

  public WalkProblems {
    details = List.copyOf(details);
    byKind = Collections.unmodifiableMap(new LinkedHashMap<>(byKind));
  }

  /** Whether nothing is wrong. */
  public boolean isEmpty() {
    return details.isEmpty() && byKind.isEmpty() && bytesNotWalked == 0;
  }

  /** Whether part of the heap was not walked: the snapshot holds less than the heap. */
  public boolean heapNotWhole() {
    return !byKind.isEmpty() || bytesNotWalked > 0;
  }
}
