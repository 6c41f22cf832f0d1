package dev.clrscope.symbols;

import java.util.Arrays;

/**
 * Named address ranges in parallel primitive arrays sorted by start, looked up by binary search:
 * the table behind ELF symbol tables and perf maps. Built once ({@link Builder}), then read-only
 * and safe to share.
 */
final class AddressTable {
  /** Start addresses with the sign bit flipped, so that signed order is unsigned order. */
  private final long[] keys;

  private final long[] sizes;
  private final String[] names;

  private AddressTable(long[] keys, long[] sizes, String[] names) {
    this.keys = keys;
    this.sizes = sizes;
    this.names = names;
  }

  /** An empty table. */
  static AddressTable empty() {
    return new AddressTable(new long[0], new long[0], new String[0]);
  }

  /** The name of the range holding {@code address}, or {@code null}. */
  String nameOrNull(long address) {
    int i = indexOf(address);
    return i < 0 ? null : names[i];
  }

  /** The index of the range holding {@code address}, or -1. */
  int indexOf(long address) {
    long key = address ^ Long.MIN_VALUE;
    int lo = 0;
    int hi = keys.length - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (keys[mid] <= key) {
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    // Ranges may nest (an alias of a bigger symbol): look back a little for one that holds it.
    for (int i = hi; i >= 0 && i > hi - 8; i--) {
      if (Long.compareUnsigned(key - keys[i], sizes[i]) < 0) {
        return i;
      }
    }
    return -1;
  }

  String name(int index) {
    return names[index];
  }

  int size() {
    return keys.length;
  }

  /** Collects ranges in any order. */
  static final class Builder {
    private long[] starts = new long[256];
    private long[] sizes = new long[256];
    private String[] names = new String[256];
    private int count;

    void add(long start, long size, String name) {
      if (size <= 0) {
        return;
      }
      if (count == starts.length) {
        starts = Arrays.copyOf(starts, count * 2);
        sizes = Arrays.copyOf(sizes, count * 2);
        names = Arrays.copyOf(names, count * 2);
      }
      starts[count] = start ^ Long.MIN_VALUE;
      sizes[count] = size;
      names[count] = name;
      count++;
    }

    AddressTable build() {
      Integer[] order = new Integer[count];
      for (int i = 0; i < count; i++) {
        order[i] = i;
      }
      Arrays.sort(order, (a, b) -> Long.compare(starts[a], starts[b]));
      long[] k = new long[count];
      long[] s = new long[count];
      String[] n = new String[count];
      for (int i = 0; i < count; i++) {
        k[i] = starts[order[i]];
        s[i] = sizes[order[i]];
        n[i] = names[order[i]];
      }
      return new AddressTable(k, s, n);
    }
  }
}
