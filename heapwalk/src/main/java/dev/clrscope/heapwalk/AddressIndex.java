package dev.clrscope.heapwalk;

import java.util.Arrays;

/**
 * Objects found by address. The addresses in order (the objects' own array when the GC walked the
 * heap in address order, else a sorted copy and each sorted position's object), and a hash table of
 * the 4 KB pages they lie on, so that a lookup searches one page's few dozen objects instead of the
 * whole heap. The builder's own {@link PageIndex} sorts nothing; this one serves a walk whose
 * pages' objects did not come together.
 *
 * <pre>
 *  page p = address >>> 12:  pageKey[h] = p + 1 (0: empty slot), sorted[pageFrom[h] .. pageTo[h]-1]
 *                            the addresses on that page; h = hash(p), then the next slots
 * </pre>
 */
final class AddressIndex {
  private static final int PAGE_SHIFT = 12;

  private final long[] sorted;
  private final int[] objectAt;
  private final long[] pageKey;
  private final int[] pageFrom;
  private final int[] pageTo;
  private final int mask;

  AddressIndex(long[] address) {
    boolean inOrder = true;
    for (int i = 1; i < address.length && inOrder; i++) {
      inOrder = address[i - 1] < address[i];
    }
    if (inOrder) {
      sorted = address;
      objectAt = null;
    } else {
      sorted = address.clone();
      Arrays.sort(sorted);
      objectAt = new int[address.length];
      for (int i = 0; i < address.length; i++) {
        objectAt[Arrays.binarySearch(sorted, address[i])] = i;
      }
    }
    int pages = 0;
    for (int i = 0; i < sorted.length; i++) {
      if (i == 0 || sorted[i] >>> PAGE_SHIFT != sorted[i - 1] >>> PAGE_SHIFT) {
        pages++;
      }
    }
    int capacity = Integer.highestOneBit(Math.max(16, pages * 2 + 1)) << 1;
    mask = capacity - 1;
    pageKey = new long[capacity];
    pageFrom = new int[capacity];
    pageTo = new int[capacity];
    int slot = -1;
    for (int i = 0; i < sorted.length; i++) {
      long page = sorted[i] >>> PAGE_SHIFT;
      if (i == 0 || page != sorted[i - 1] >>> PAGE_SHIFT) {
        slot = slotOf(page);
        pageKey[slot] = page + 1;
        pageFrom[slot] = i;
      }
      pageTo[slot] = i + 1;
    }
  }

  private int slotOf(long page) {
    return PageIndex.slotOf(pageKey, mask, page);
  }

  /** The object at {@code address}, or -1. */
  int find(long address) {
    int slot = slotOf(address >>> PAGE_SHIFT);
    if (pageKey[slot] == 0) {
      return -1;
    }
    int at = Arrays.binarySearch(sorted, pageFrom[slot], pageTo[slot], address);
    return at < 0 ? -1 : objectAt == null ? at : objectAt[at];
  }

  /** {@link #find} of each address. */
  int[] findAll(long[] addresses) {
    int[] found = new int[addresses.length];
    for (int i = 0; i < addresses.length; i++) {
      found[i] = find(addresses[i]);
    }
    return found;
  }
}
