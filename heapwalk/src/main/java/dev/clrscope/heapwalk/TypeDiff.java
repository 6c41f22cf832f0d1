package dev.clrscope.heapwalk;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How one type changed between two snapshots.
 *
 * @param type the type's name
 * @param countBefore objects before
 * @param countAfter objects after
 * @param sizeBefore their total size before
 * @param sizeAfter their total size after
 * @param retainedBefore what they retained before
 * @param retainedAfter what they retain after
 */
public record TypeDiff(
    String type,
    long countBefore,
    long countAfter,
    long sizeBefore,
    long sizeAfter,
    long retainedBefore,
    long retainedAfter) {

  /** Objects gained (negative: lost). */
  public long countDelta() {
    return countAfter - countBefore;
  }

  /** Bytes gained by the type's own objects. */
  public long sizeDelta() {
    return sizeAfter - sizeBefore;
  }

  /** Bytes gained in what the type retains. */
  public long retainedDelta() {
    return retainedAfter - retainedBefore;
  }

  /**
   * Every type of either snapshot, most grown first (by total size, then retained size, then
   * count), unchanged types left out.
   */
  public static List<TypeDiff> between(HeapSnapshot before, HeapSnapshot after) {
    Map<String, long[]> byType = new LinkedHashMap<>();
    for (TypeStatistics t : before.typeStatistics()) {
      long[] v = byType.computeIfAbsent(t.type(), k -> new long[6]);
      v[0] = t.count();
      v[2] = t.totalSize();
      v[4] = t.retainedSize();
    }
    for (TypeStatistics t : after.typeStatistics()) {
      long[] v = byType.computeIfAbsent(t.type(), k -> new long[6]);
      v[1] = t.count();
      v[3] = t.totalSize();
      v[5] = t.retainedSize();
    }
    List<TypeDiff> rows = new ArrayList<>();
    byType.forEach(
        (type, v) -> {
          TypeDiff d = new TypeDiff(type, v[0], v[1], v[2], v[3], v[4], v[5]);
          if (d.countDelta() != 0 || d.sizeDelta() != 0 || d.retainedDelta() != 0) {
            rows.add(d);
          }
        });
    rows.sort(
        Comparator.comparingLong(TypeDiff::sizeDelta)
            .thenComparingLong(TypeDiff::retainedDelta)
            .thenComparingLong(TypeDiff::countDelta)
            .reversed()
            .thenComparing(TypeDiff::type));
    return rows;
  }
}
