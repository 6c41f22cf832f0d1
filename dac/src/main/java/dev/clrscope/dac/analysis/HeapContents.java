package dev.clrscope.dac.analysis;

import dev.clrscope.dac.ClrHeap;
import dev.clrscope.dac.ClrObject;
import dev.clrscope.dac.HeapObject;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongPredicate;

/**
 * What the heap's objects hold that costs memory for nothing: strings of one value held many times
 * ({@code duplicates}), and collections and arrays much bigger than what they hold ({@code fill}).
 * Only live objects count (the caller says which are: garbage costs nothing once collected).
 */
public final class HeapContents {
  private HeapContents() {}

  /** Chars read of a string at most: longer values are told apart by this prefix and length. */
  private static final int MAX_CHARS = 1 << 16;

  /**
   * A value held by several strings.
   *
   * @param value the value
   * @param count how many strings hold it
   * @param size the size of one of them
   * @param sample the address of one of them
   */
  public record Duplicate(String value, long count, long size, long sample) {
    /** What all but one of them take. */
    public long wastedBytes() {
      return (count - 1) * size;
    }
  }

  /** The values that {@code minCount} or more live strings hold, most wasted bytes first. */
  public static List<Duplicate> duplicateStrings(ClrHeap heap, LongPredicate live, int minCount) {
    Map<String, long[]> byValue = new HashMap<>();
    heap.walk(
        o -> {
          if (!o.type().isString() || !live.test(o.address())) {
            return;
          }
          String value = chars(o);
          long[] seen = byValue.get(value);
          if (seen == null) {
            byValue.put(value, new long[] {1, o.size(), o.address()});
          } else {
            seen[0]++;
          }
        });
    List<Duplicate> out = new ArrayList<>();
    byValue.forEach(
        (value, s) -> {
          if (s[0] >= Math.max(2, minCount)) {
            out.add(new Duplicate(value, s[0], s[1], s[2]));
          }
        });
    out.sort(
        Comparator.comparingLong(Duplicate::wastedBytes)
            .reversed()
            .thenComparing(Duplicate::value));
    return out;
  }

  /** A string's characters, read from the walk's block: length at 8, UTF-16 from 12. */
  private static String chars(HeapObject o) {
    int length = (int) Math.min(o.count(), MAX_CHARS);
    char[] c = new char[length];
    for (int k = 0; k < length; k += 4) {
      long w = o.word(12 + 2L * k);
      for (int j = 0; j < 4 && k + j < length; j++) {
        c[k + j] = (char) (w >>> (16 * j));
      }
    }
    String s = new String(c);
    return o.count() > MAX_CHARS ? s + "\u2026(" + o.count() + " chars)" : s;
  }

  /**
   * How full one collection or array is.
   *
   * @param type its type
   * @param address its address
   * @param capacity the slots it has
   * @param used the slots in use (a list's size, a dictionary's entries, an array's non-null
   *     elements)
   * @param wastedBytes what the slots not in use take
   */
  public record Fill(String type, long address, long capacity, long used, long wastedBytes) {}

  private static final String LIST = "System.Collections.Generic.List<";
  private static final String DICTIONARY = "System.Collections.Generic.Dictionary<";
  private static final String HASH_SET = "System.Collections.Generic.HashSet<";

  /**
   * Every live {@code List<T>}, {@code Dictionary<K,V>} and {@code HashSet<T>} (their backing
   * stores' slots against their counts) and every live array of references (its null elements),
   * with a slot or more unused.
   */
  public static List<Fill> fill(ClrHeap heap, LongPredicate live) {
    List<Fill> out = new ArrayList<>();
    List<Long> collections = new ArrayList<>();
    heap.walk(
        o -> {
          if (!live.test(o.address())) {
            return;
          }
          String name = o.type().name();
          if (name.startsWith(LIST) || name.startsWith(DICTIONARY) || name.startsWith(HASH_SET)) {
            if (name.indexOf('+') < 0) {
              collections.add(o.address());
            }
          } else if (o.type().isArray()
              && o.type().containsPointers()
              && o.type().componentSize() == 8) {
            long length = o.count();
            long nulls = 0;
            for (long i = 0; i < length; i++) {
              // Elements from 16: method table, length and its padding before them.
              if (o.word(16 + 8 * i) == 0) {
                nulls++;
              }
            }
            if (nulls > 0) {
              out.add(new Fill(name, o.address(), length, length - nulls, nulls * 8));
            }
          }
        });
    for (long address : collections) {
      ClrObject c = heap.object(address);
      String name = c.type().name();
      ClrObject store;
      long used;
      if (name.startsWith(LIST)) {
        store = c.objectField("_items");
        used = c.intField("_size");
      } else {
        store = c.objectField("_entries");
        used = (long) c.intField("_count") - c.intField("_freeCount");
      }
      long capacity = store == null ? 0 : store.length();
      if (capacity > used) {
        out.add(
            new Fill(
                name, address, capacity, used, (capacity - used) * store.type().componentSize()));
      }
    }
    return out;
  }
}
