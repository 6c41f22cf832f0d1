package dev.clrscope.heapwalk;

/**
 * Objects found by address, indexed while the walk's objects arrive. The GC walks each part of the
 * heap from low addresses to high, so the objects that start on one 4 KB page arrive one after
 * another: a page's entry holds where its first object is in the walk and a bitmap of where objects
 * start on it (one bit per 8-byte granule on 64-bit, 4-byte on 32-bit). An object's index is its
 * page's first plus the objects that start before it on the page, the bits counted: a lookup is a
 * hash probe and a few population counts, never a search, and nothing is sorted.
 *
 * <pre>
 *  page p = address >>> 12:  key[h] = p + 1 (0: empty slot), first[h] = the walk's index of the
 *                            page's first object, bits[h * words ...] where objects start;
 *                            h = hash(p), then the next slots
 * </pre>
 *
 * A walk that does not keep to that order (a page's objects apart, or not ascending) leaves {@link
 * #ordered()} false: its objects are then found through the sorted {@link AddressIndex}.
 */
final class PageIndex {
  private static final int PAGE_SHIFT = 12;
  private static final long PAGE_MASK = (1 << PAGE_SHIFT) - 1;

  private final int granuleShift;
  private final long granuleMask;

  /** Bitmap words per page. */
  private final int words;

  private long[] key;
  private int[] first;
  private long[] bits;
  private int mask;
  private int pages;
  private int count;
  private boolean ordered = true;
  private long currentPage = -1;
  private int currentSlot;
  private int lastGranule;

  /**
   * @param pointerSize the walked process's pointer size (4 or 8): objects start on multiples of it
   */
  PageIndex(int pointerSize) {
    granuleShift = pointerSize == 4 ? 2 : 3;
    granuleMask = (1L << granuleShift) - 1;
    words = (1 << PAGE_SHIFT >> granuleShift) / 64;
    allocate(1 << 10);
  }

  private void allocate(int capacity) {
    key = new long[capacity];
    first = new int[capacity];
    bits = new long[capacity * words];
    mask = capacity - 1;
  }

  /**
   * Whether every object so far kept to the walk's order; if not, {@link #find} is not to be used.
   */
  boolean ordered() {
    return ordered;
  }

  /**
   * Whether the objects came in ascending address order (each page after the one before, and in
   * order on it): the walk's objects are then numbered in address order.
   */
  boolean ascending() {
    return ordered && ascending;
  }

  private boolean ascending = true;

  /** {@link #add} of {@code addresses[0..n)}. */
  void addAll(long[] addresses, int n) {
    ranks = null;
    for (int j = 0; j < n; j++) {
      long address = addresses[j];
      int granule = (int) ((address & PAGE_MASK) >>> granuleShift);
      // The common case inline: the next object on the page of the one before.
      if (ordered
          && address >>> PAGE_SHIFT == currentPage
          && granule > lastGranule
          && (address & granuleMask) == 0) {
        bits[currentSlot * words + (granule >>> 6)] |= 1L << granule;
        lastGranule = granule;
        count++;
      } else {
        add(address);
      }
    }
  }

  /** Adds the walk's next object (its index is the number of objects added before it). */
  void add(long address) {
    ranks = null;
    int i = count++;
    if (!ordered) {
      return;
    }
    long page = address >>> PAGE_SHIFT;
    int granule = (int) ((address & PAGE_MASK) >>> granuleShift);
    if ((address & granuleMask) != 0 || address == 0) {
      ordered = false;
      return;
    }
    if (page != currentPage) {
      if (page < currentPage) {
        ascending = false;
      }
      if (pages * 2 >= mask) {
        grow();
      }
      int slot = slotOf(page);
      if (key[slot] != 0) {
        // The page came before, and its objects are not all together.
        ordered = false;
        return;
      }
      key[slot] = page + 1;
      first[slot] = i;
      pages++;
      if (firstPage < 0) {
        firstPage = page;
      }
      currentPage = page;
      currentSlot = slot;
      lastGranule = -1;
    }
    if (granule <= lastGranule) {
      ordered = false;
      return;
    }
    bits[currentSlot * words + (granule >>> 6)] |= 1L << granule;
    lastGranule = granule;
  }

  /**
   * Takes {@code later}'s objects after this one's: the index of objects added to another index, of
   * addresses above all of this one's, numbered from {@code offset} (this one's count). A page both
   * hold leaves the index unordered.
   */
  void append(PageIndex later, int offset) {
    ranks = null;
    if (later.words != words) {
      throw new IllegalArgumentException("pages of another pointer size");
    }
    boolean wasAscending = ascending();
    long lastPage = currentPage;
    for (int s = 0; s < later.key.length; s++) {
      if (later.key[s] == 0) {
        continue;
      }
      if (pages * 2 >= mask) {
        grow();
      }
      long page = later.key[s] - 1;
      int slot = slotOf(page);
      if (key[slot] != 0) {
        ordered = false;
        continue;
      }
      key[slot] = page + 1;
      first[slot] = later.first[s] + offset;
      System.arraycopy(later.bits, s * words, bits, slot * words, words);
      pages++;
    }
    ordered &= later.ordered;
    ascending =
        wasAscending
            && later.ascending()
            && (later.count == 0 || count == 0 || later.firstPage > lastPage);
    if (count == 0) {
      firstPage = later.firstPage;
    }
    count += later.count;
    if (later.currentPage >= 0) {
      currentPage = later.currentPage;
      currentSlot = slotOf(currentPage);
      lastGranule = later.lastGranule;
    }
  }

  /** The page of the first object added, or -1. */
  private long firstPage = -1;

  private void grow() {
    long[] oldKey = key;
    int[] oldFirst = first;
    long[] oldBits = bits;
    allocate(key.length * 2);
    for (int s = 0; s < oldKey.length; s++) {
      if (oldKey[s] != 0) {
        int slot = slotOf(oldKey[s] - 1);
        key[slot] = oldKey[s];
        first[slot] = oldFirst[s];
        System.arraycopy(oldBits, s * words, bits, slot * words, words);
      }
    }
    if (currentPage >= 0) {
      currentSlot = slotOf(currentPage);
    }
  }

  private int slotOf(long page) {
    return slotOf(key, mask, page);
  }

  /**
   * The slot of {@code page} in an open-addressing table of pages ({@code key[h]} the page + 1, 0
   * for an empty slot; {@code mask} its size - 1): where it is, or the empty slot where it would
   * go.
   */
  static int slotOf(long[] key, int mask, long page) {
    int h = (int) (page * 0x9E3779B97F4A7C15L >>> 40) & mask;
    while (key[h] != 0 && key[h] != page + 1) {
      h = (h + 1) & mask;
    }
    return h;
  }

  /**
   * Ends the adding: counts, for every bitmap word, the walk's index of its first object, so that
   * {@link #find} counts the bits of one word instead of all the words before it on the page (the
   * quick compiler calls {@code Long.bitCount} rather than inlining it). {@link #find} may then run
   * on several threads at once.
   */
  void seal() {
    if (ranks != null) {
      return;
    }
    int[] r = new int[bits.length];
    for (int slot = 0; slot < key.length; slot++) {
      if (key[slot] != 0) {
        int rank = first[slot];
        for (int k = slot * words, end = k + words; k < end; k++) {
          r[k] = rank;
          rank += Long.bitCount(bits[k]);
        }
      }
    }
    ranks = r;
  }

  /** Per bitmap word, the walk's index of its first object; set by {@link #seal}. */
  private int[] ranks;

  /**
   * The object that starts at {@code address}, or -1. Seals the index first if it is not sealed:
   * from several threads, only once sealed.
   */
  int find(long address) {
    if ((address & granuleMask) != 0) {
      return -1;
    }
    int slot = slotOf(address >>> PAGE_SHIFT);
    if (key[slot] == 0) {
      return -1;
    }
    int granule = (int) ((address & PAGE_MASK) >>> granuleShift);
    int at = slot * words + (granule >>> 6);
    long word = bits[at];
    if ((word >>> granule & 1) == 0) {
      return -1;
    }
    if (ranks == null) {
      seal();
    }
    return ranks[at] + Long.bitCount(word & ((1L << granule) - 1));
  }

  /** How many objects were added. */
  int size() {
    return count;
  }
}
