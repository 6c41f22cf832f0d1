package dev.clrscope.dac;

/** A set of non-zero longs (addresses), open addressing over one array: no boxing. */
final class LongSet {
  private long[] keys = new long[1024];
  private int size;

  private static int slot(long key, int mask) {
    long h = key * 0x9E3779B97F4A7C15L;
    return (int) (h ^ (h >>> 32)) & mask;
  }

  boolean contains(long key) {
    int mask = keys.length - 1;
    for (int i = slot(key, mask); ; i = (i + 1) & mask) {
      long k = keys[i];
      if (k == key) {
        return true;
      }
      if (k == 0) {
        return false;
      }
    }
  }

  /** Adds {@code key}; returns whether it was not there. */
  boolean add(long key) {
    if (2 * (size + 1) > keys.length) {
      grow();
    }
    int mask = keys.length - 1;
    for (int i = slot(key, mask); ; i = (i + 1) & mask) {
      long k = keys[i];
      if (k == key) {
        return false;
      }
      if (k == 0) {
        keys[i] = key;
        size++;
        return true;
      }
    }
  }

  int size() {
    return size;
  }

  void forEach(java.util.function.LongConsumer action) {
    for (long k : keys) {
      if (k != 0) {
        action.accept(k);
      }
    }
  }

  private void grow() {
    long[] old = keys;
    keys = new long[old.length * 2];
    size = 0;
    for (long k : old) {
      if (k != 0) {
        add(k);
      }
    }
  }
}
