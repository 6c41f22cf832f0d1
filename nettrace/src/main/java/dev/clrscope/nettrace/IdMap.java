package dev.clrscope.nettrace;

import java.util.Arrays;

/**
 * A map from ids to values, open addressing over three arrays: the parser looks up every event's
 * metadata, stack and capture thread by id, and a {@code HashMap<Integer, V>} (or {@code Long})
 * boxed each key and followed a node per lookup (a tenth of a whole-file pass).
 */
final class IdMap<V> {
  private long[] keys = new long[64];
  private Object[] values = new Object[64];
  private boolean[] used = new boolean[64];
  private int size;

  /** The value of {@code key}, or null. */
  @SuppressWarnings("unchecked")
  V get(long key) {
    int mask = keys.length - 1;
    for (int h = hash(key) & mask; used[h]; h = (h + 1) & mask) {
      if (keys[h] == key) {
        return (V) values[h];
      }
    }
    return null;
  }

  /** Sets {@code key}'s value (not null). */
  void put(long key, V value) {
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

  /** Removes {@code key}, if there. */
  void remove(long key) {
    int mask = keys.length - 1;
    int i = hash(key) & mask;
    while (used[i] && keys[i] != key) {
      i = (i + 1) & mask;
    }
    if (!used[i]) {
      return;
    }
    used[i] = false;
    values[i] = null;
    size--;
    // The entries after it that would no longer be found move into the hole (linear probing).
    for (int j = (i + 1) & mask; used[j]; j = (j + 1) & mask) {
      int home = hash(keys[j]) & mask;
      boolean staysPut = i <= j ? i < home && home <= j : i < home || home <= j;
      if (!staysPut) {
        keys[i] = keys[j];
        values[i] = values[j];
        used[i] = true;
        used[j] = false;
        values[j] = null;
        i = j;
      }
    }
  }

  /** A map of the same entries that changes apart from this one. */
  IdMap<V> copy() {
    IdMap<V> c = new IdMap<>();
    c.keys = keys.clone();
    c.values = values.clone();
    c.used = used.clone();
    c.size = size;
    return c;
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
    long[] oldKeys = keys;
    Object[] oldValues = values;
    boolean[] oldUsed = used;
    keys = new long[oldKeys.length * 2];
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

  private static int hash(long key) {
    long h = key * 0x9E3779B97F4A7C15L;
    return (int) (h ^ h >>> 32);
  }
}
