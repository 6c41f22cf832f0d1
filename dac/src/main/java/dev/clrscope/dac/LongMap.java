package dev.clrscope.dac;

import java.util.Arrays;
import java.util.function.BiConsumer;

/**
 * A map from non-zero longs (addresses) to values, open addressing over two arrays: no boxing on
 * the heap walk's per-object lookups.
 */
final class LongMap<V> {
  private long[] keys = new long[64];
  private Object[] values = new Object[64];
  private int size;

  private static int slot(long key, int mask) {
    long h = key * 0x9E3779B97F4A7C15L;
    return (int) (h ^ (h >>> 32)) & mask;
  }

  @SuppressWarnings("unchecked")
  V get(long key) {
    int mask = keys.length - 1;
    for (int i = slot(key, mask); ; i = (i + 1) & mask) {
      long k = keys[i];
      if (k == key) {
        return (V) values[i];
      }
      if (k == 0) {
        return null;
      }
    }
  }

  boolean containsKey(long key) {
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

  void put(long key, V value) {
    if (key == 0) {
      throw new IllegalArgumentException("key 0");
    }
    if (2 * (size + 1) > keys.length) {
      grow();
    }
    int mask = keys.length - 1;
    for (int i = slot(key, mask); ; i = (i + 1) & mask) {
      if (keys[i] == key) {
        values[i] = value;
        return;
      }
      if (keys[i] == 0) {
        keys[i] = key;
        values[i] = value;
        size++;
        return;
      }
    }
  }

  int size() {
    return size;
  }

  @SuppressWarnings("unchecked")
  void forEach(BiConsumer<Long, V> action) {
    for (int i = 0; i < keys.length; i++) {
      if (keys[i] != 0) {
        action.accept(keys[i], (V) values[i]);
      }
    }
  }

  private void grow() {
    long[] oldKeys = keys;
    Object[] oldValues = values;
    keys = new long[oldKeys.length * 2];
    values = new Object[oldKeys.length * 2];
    size = 0;
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldKeys[i] != 0) {
        @SuppressWarnings("unchecked")
        V v = (V) oldValues[i];
        put(oldKeys[i], v);
      }
    }
  }

  void clear() {
    Arrays.fill(keys, 0);
    Arrays.fill(values, null);
    size = 0;
  }
}
