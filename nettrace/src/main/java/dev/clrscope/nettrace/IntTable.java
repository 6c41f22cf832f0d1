package dev.clrscope.nettrace;

import java.util.Arrays;

/**
 * A map from int keys to values, open addressing over two arrays: the parser looks up every event's
 * metadata and stack by id, and a {@code HashMap<Integer, V>} boxed each key and followed a node
 * per lookup (a tenth of a whole-file pass).
 */
final class IntTable<V> {
  private int[] keys = new int[64];
  private Object[] values = new Object[64];
  private boolean[] used = new boolean[64];
  private int size;

  /** The value of {@code key}, or null. */
  @SuppressWarnings("unchecked")
  V get(int key) {
    int mask = keys.length - 1;
    for (int h = hash(key) & mask; used[h]; h = (h + 1) & mask) {
      if (keys[h] == key) {
        return (V) values[h];
      }
    }
    return null;
  }

  /** Sets {@code key}'s value (not null). */
  void put(int key, V value) {
    int mask = keys.length - 1;
    int h = hash(key) & mask;
    for (; used[h]; h = (h + 1) & mask) {
      if (keys[h] == key) {
        values[h] = value;
        return;
      }
    }
    used[h] = true;
    keys[h] = key;
    values[h] = value;
    if (++size * 2 > keys.length) {
      grow();
    }
  }

  int size() {
    return size;
  }

  void clear() {
    if (size > 0) {
      Arrays.fill(used, false);
      Arrays.fill(values, null);
      size = 0;
    }
  }

  private void grow() {
    int[] oldKeys = keys;
    Object[] oldValues = values;
    boolean[] oldUsed = used;
    keys = new int[oldKeys.length * 2];
    values = new Object[keys.length];
    used = new boolean[keys.length];
    int mask = keys.length - 1;
    for (int i = 0; i < oldKeys.length; i++) {
      if (oldUsed[i]) {
        int h = hash(oldKeys[i]) & mask;
        while (used[h]) {
          h = (h + 1) & mask;
        }
        used[h] = true;
        keys[h] = oldKeys[i];
        values[h] = oldValues[i];
      }
    }
  }

  private static int hash(int key) {
    return key * 0x9E3779B9 >>> 7 ^ key;
  }
}
