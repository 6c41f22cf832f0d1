package dev.clrscope.dac;

import dev.clrscope.heapwalk.WalkProblems;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a heap walk could not read, so that a smaller heap is never reported as if whole: how many
 * segments it had to stop in, by kind ({@link HeapProblem.Kind}), the bytes of the heap it did not
 * walk, and the first places in detail. Empty for a heap read whole.
 *
 * @param byKind how many times the walk stopped, per kind (kinds that never happened left out)
 * @param bytesNotWalked the bytes of the heap's segments the walk did not walk
 * @param first the first {@link #KEPT} problems, in the walk's order
 */
public record HeapProblems(
    Map<HeapProblem.Kind, Integer> byKind, long bytesNotWalked, List<HeapProblem> first) {
  /** Problems kept in detail; more are counted. */
  public static final int KEPT = 100;

  /** A heap read whole. */
  public static final HeapProblems NONE = new HeapProblems(Map.of(), 0, List.of());

  public HeapProblems {
    byKind = byKind.isEmpty() ? Map.of() : Collections.unmodifiableMap(new EnumMap<>(byKind));
    first = List.copyOf(first);
  }

  /**
   * What a snapshot's exact walk counted ({@link WalkProblems#byKind}, {@link
   * WalkProblems#bytesNotWalked}): the same counts, without the places in detail.
   */
  public static HeapProblems of(WalkProblems walk) {
    Map<HeapProblem.Kind, Integer> byKind = new EnumMap<>(HeapProblem.Kind.class);
    for (HeapProblem.Kind k : HeapProblem.Kind.values()) {
      Integer n = walk.byKind().get(k.key());
      if (n != null) {
        byKind.put(k, n);
      }
    }
    return byKind.isEmpty() && walk.bytesNotWalked() == 0
        ? NONE
        : new HeapProblems(byKind, walk.bytesNotWalked(), List.of());
  }

  /** The problems of two walks as one walk's, {@code lower}'s first. */
  static HeapProblems concat(HeapProblems lower, HeapProblems upper) {
    if (upper.isEmpty() && upper.bytesNotWalked == 0) {
      return lower;
    }
    if (lower.isEmpty() && lower.bytesNotWalked == 0) {
      return upper;
    }
    Map<HeapProblem.Kind, Integer> byKind = new EnumMap<>(lower.byKind);
    upper.byKind.forEach((k, n) -> byKind.merge(k, n, Integer::sum));
    List<HeapProblem> first = new ArrayList<>(lower.first);
    for (HeapProblem p : upper.first) {
      if (first.size() < KEPT) {
        first.add(p);
      }
    }
    return new HeapProblems(byKind, lower.bytesNotWalked + upper.bytesNotWalked, first);
  }

  /** The counts by kind under their JSON names ({@code typeUnreadable}), or null when none. */
  public Map<String, Integer> countsByName() {
    if (byKind.isEmpty()) {
      return null;
    }
    Map<String, Integer> out = new java.util.LinkedHashMap<>();
    byKind.forEach((k, n) -> out.put(k.key(), n));
    return out;
  }

  /** Whether the heap was read whole. */
  public boolean isEmpty() {
    return byKind.isEmpty();
  }

  /** How many times the walk stopped. */
  public int count() {
    int n = 0;
    for (int c : byKind.values()) {
      n += c;
    }
    return n;
  }

  /**
   * One line for a person: {@code 4,938,280 bytes of the heap not walked: 1 object whose type
   * cannot be read (the rest of its segment skipped)}.
   */
  public String summary() {
    List<String> kinds = new ArrayList<>();
    byKind.forEach((k, n) -> kinds.add(k.count(n)));
    return String.format(Locale.ROOT, "%,d bytes of the heap not walked: ", bytesNotWalked)
        + String.join(", ", kinds)
        + " (the rest of each such segment skipped)";
  }

  /** Collects the problems of one walk. */
  static final class Collector {
    private final Map<HeapProblem.Kind, Integer> byKind = new EnumMap<>(HeapProblem.Kind.class);
    private final List<HeapProblem> first = new ArrayList<>();
    private long bytes;

    void add(HeapProblem p) {
      byKind.merge(p.kind(), 1, Integer::sum);
      bytes += p.bytesNotWalked();
      if (first.size() < KEPT) {
        first.add(p);
      }
    }

    HeapProblems done() {
      return byKind.isEmpty() ? NONE : new HeapProblems(byKind, bytes, first);
    }
  }
}
