package dev.clrscope.cli.commands.analyze;

import dev.clrscope.dac.ClrType;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;

/**
 * Objects counted per type, in the order types are first met: a count, a total size and one more
 * counter of the caller's. Types are compared by identity (the model makes one per method table).
 */
final class TypeTally {
  private final IdentityHashMap<ClrType, long[]> counts = new IdentityHashMap<>();
  private final List<ClrType> order = new ArrayList<>();

  /**
   * Counts one object of {@code type} of {@code size} bytes.
   *
   * @return the type's counters: count, total size, and the caller's own
   */
  long[] add(ClrType type, long size) {
    long[] c = counts.get(type);
    if (c == null) {
      c = new long[3];
      counts.put(type, c);
      order.add(type);
    }
    c[0]++;
    c[1] += size;
    return c;
  }

  /** The types met, in order. */
  List<ClrType> types() {
    return order;
  }

  /** A type's counters. */
  long[] of(ClrType type) {
    return counts.get(type);
  }
}
