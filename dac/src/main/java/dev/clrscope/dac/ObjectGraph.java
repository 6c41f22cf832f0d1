package dev.clrscope.dac;

import java.util.Arrays;
import java.util.List;

/**
 * Every object of the heap and its references, as primitive arrays indexed by object number
 * (objects numbered in address order): built by two heap walks, the first for the addresses, the
 * second for the references, each target address turned into its object's number. Following
 * references is then array arithmetic, with no read of target memory.
 *
 * <p>12 bytes per object (its address and where its references start) and 4 per reference.
 */
final class ObjectGraph {
  final long[] addresses;
  // References of object i: refs[refStart[i] .. refStart[i + 1]).
  final int[] refStart;
  final int[] refs;

  private ObjectGraph(long[] addresses, int[] refStart, int[] refs) {
    this.addresses = addresses;
    this.refStart = refStart;
    this.refs = refs;
  }

  int size() {
    return addresses.length;
  }

  /** The number of the object at {@code address}, or -1. */
  int indexOf(long address) {
    int i = Arrays.binarySearch(addresses, address);
    return i >= 0 ? i : -1;
  }

  /** The number of the object whose bytes hold {@code address} (start or inside), or -1. */
  int indexHolding(long address) {
    int i = Arrays.binarySearch(addresses, address);
    if (i >= 0) {
      return i;
    }
    int floor = -i - 2;
    return floor >= 0 && floor + 1 < addresses.length ? floor : -1;
  }

  static ObjectGraph build(ClrProcess process, List<HeapSegment> segments) {
    // Segments in address order, so the walk meets objects in address order.
    List<HeapSegment> sorted =
        segments.stream().sorted((a, b) -> Long.compareUnsigned(a.start(), b.start())).toList();
    long[][] addresses = {new long[1 << 16]};
    int[] count = {0};
    process.walkSegments(
        sorted,
        o -> {
          if (count[0] == addresses[0].length) {
            addresses[0] = Arrays.copyOf(addresses[0], addresses[0].length * 2);
          }
          addresses[0][count[0]++] = o.address();
        });
    long[] all = Arrays.copyOf(addresses[0], count[0]);
    // Unsigned order is signed order here: user-space addresses are below 2^63.
    Arrays.sort(all);
    int[] refStart = new int[all.length + 1];
    int[][] refs = {new int[Math.max(16, all.length * 2)]};
    int[] used = {0};
    process.walkSegments(
        sorted,
        o -> {
          int i = Arrays.binarySearch(all, o.address());
          if (i < 0) {
            return;
          }
          refStart[i] = used[0];
          o.references(
              (target, offset) -> {
                int t = Arrays.binarySearch(all, target);
                if (t >= 0) {
                  if (used[0] == refs[0].length) {
                    refs[0] = Arrays.copyOf(refs[0], refs[0].length + refs[0].length / 2 + 16);
                  }
                  refs[0][used[0]++] = t;
                }
              });
          refStart[i + 1] = used[0];
        });
    // Objects not met by the second walk (none, unless the heap changed) have no references.
    for (int i = 1; i <= all.length; i++) {
      if (refStart[i] < refStart[i - 1]) {
        refStart[i] = refStart[i - 1];
      }
    }
    return new ObjectGraph(all, refStart, Arrays.copyOf(refs[0], used[0]));
  }
}
