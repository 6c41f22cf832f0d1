package dev.clrscope.dac;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Objects per type over the whole heap, as {@code dumpheap -stat} counts them (free space included,
 * as the {@code Free} type).
 *
 * @param types one entry per type seen, in first-seen order
 * @param walk what the walk saw
 */
public record HeapStatistics(List<TypeStat> types, WalkSummary walk) {
  /** A type's count and total size (sizes as SOS counts them). */
  public record TypeStat(ClrType type, long count, long totalSize) {}

  /** The entries in dumpheap's order: by total size, then count, then name. */
  public List<TypeStat> bySize() {
    List<TypeStat> sorted = new ArrayList<>(types);
    sorted.sort(
        Comparator.comparingLong(TypeStat::totalSize)
            .thenComparingLong(TypeStat::count)
            .thenComparing(s -> s.type().name()));
    return sorted;
  }

  /** The entry of the type named {@code name}, or null. */
  public TypeStat of(String name) {
    for (TypeStat s : types) {
      if (s.type().name().equals(name)) {
        return s;
      }
    }
    return null;
  }
}
