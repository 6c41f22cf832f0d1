package dev.clrscope.dac.analysis;

import dev.clrscope.dac.ClrField;
import dev.clrscope.dac.ClrHeap;
import dev.clrscope.dac.ClrObject;
import dev.clrscope.dac.ClrType;
import dev.clrscope.dac.HeapObject;
import dev.clrscope.dac.HeapVisitor;
import dev.clrscope.dac.SegmentKind;
import dev.clrscope.dac.TargetException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongPredicate;

/**
 * What the heap's objects hold that costs memory for nothing: strings of one value held many times
 * ({@code duplicates}), collections and arrays much bigger than what they hold ({@code fill}),
 * delegates whose invocation lists only grow, free space between the large object heap's objects.
 * Only live objects count (the caller says which are: garbage costs nothing once collected).
 *
 * <p>All of them come from one walk of the heap, a {@link Scan}, which sets aside what may count
 * and asks which of it is live only afterwards: the walk need not wait for the heap graph's
 * reachability, which can be computed meanwhile.
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
    Scan scan = new Scan(heap, true, false, false, 0);
    heap.walk(scan);
    return scan.duplicates(live, minCount);
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

  /**
   * Every live {@code List<T>}, {@code Dictionary<K,V>} and {@code HashSet<T>} (their backing
   * stores' slots against their counts) and every live array of references (its null elements),
   * with a slot or more unused.
   */
  public static List<Fill> fill(ClrHeap heap, LongPredicate live) {
    Scan scan = new Scan(heap, false, true, true, 0);
    heap.walk(scan);
    return scan.fill(live);
  }

  /**
   * A delegate and the methods it calls.
   *
   * @param address the delegate
   * @param type its type ({@code System.EventHandler})
   * @param size its own size
   * @param count how many methods it calls (its invocation list's)
   * @param method the first method it calls, or null
   */
  public record InvocationList(long address, String type, long size, long count, String method) {}

  /**
   * The large object heap: its objects and the free space between them.
   *
   * @param freeBytes the free space
   * @param freeBlocks how many free spaces
   * @param totalBytes its objects and free space
   */
  public record LargeObjectSpace(long freeBytes, long freeBlocks, long totalBytes) {}

  private static final String LIST = "System.Collections.Generic.List<";
  private static final String DICTIONARY = "System.Collections.Generic.Dictionary<";
  private static final String HASH_SET = "System.Collections.Generic.HashSet<";

  /**
   * One walk of the heap ({@link ClrHeap#walk}) that sets aside what the reads above look at:
   * strings by value, collections, arrays of references with null elements, delegates with long
   * invocation lists, the large object heap's space. Which of it is live is asked afterwards.
   */
  public static final class Scan implements HeapVisitor {
    private static final int STRING = 1;
    private static final int COLLECTION = 2;
    private static final int REFERENCE_ARRAY = 4;
    private static final int DELEGATE = 8;

    private final ClrHeap heap;
    private final boolean strings;
    private final boolean collections;
    private final boolean referenceArrays;
    private final int minInvocations;

    /** Per type, what it is to the scan, and for a delegate where its list and count are. */
    private final Map<ClrType, long[]> kinds = new IdentityHashMap<>();

    private ClrType lastType;
    private long[] lastKind;

    private final Map<String, Integer> valueIds = new HashMap<>();
    private final List<String> values = new ArrayList<>();
    private final List<long[]> valueSizeAndSample = new ArrayList<>();
    private long[] stringAddresses = new long[1024];
    private int[] stringValues = new int[1024];
    private int stringCount;

    private final List<Long> collectionAddresses = new ArrayList<>();
    private final List<Fill> arrays = new ArrayList<>();
    private final List<long[]> delegates = new ArrayList<>();
    private final long[] large = new long[3];

    /**
     * A scan.
     *
     * @param heap the heap walked, read again for collections' and delegates' fields
     * @param strings set strings aside by value ({@link #duplicates})
     * @param collections set lists, dictionaries and hash sets aside ({@link #fill})
     * @param referenceArrays count the null elements of arrays of references ({@link #fill})
     * @param minInvocations set delegates aside that call this many methods or more; 0 for none
     */
    public Scan(
        ClrHeap heap,
        boolean strings,
        boolean collections,
        boolean referenceArrays,
        int minInvocations) {
      this.heap = heap;
      this.strings = strings;
      this.collections = collections;
      this.referenceArrays = referenceArrays;
      this.minInvocations = minInvocations;
    }

    @Override
    public void visit(HeapObject o) {
      if (o.segment().kind() == SegmentKind.LARGE) {
        if (o.type().isFree()) {
          large[0] += o.size();
          large[1]++;
        }
        large[2] += o.size();
      }
      // Runs of one type are the rule (an array's elements, a list's items): one lookup a run.
      ClrType type = o.type();
      long[] kind = lastKind;
      if (type != lastType) {
        kind = kinds.get(type);
        if (kind == null) {
          kind = kindOf(type);
          kinds.put(type, kind);
        }
        lastType = type;
        lastKind = kind;
      }
      int k = (int) kind[0];
      if (k == 0) {
        return;
      }
      if ((k & STRING) != 0) {
        string(o);
      } else if ((k & COLLECTION) != 0) {
        collectionAddresses.add(o.address());
      } else if ((k & REFERENCE_ARRAY) != 0) {
        nulls(o);
      } else if ((k & DELEGATE) != 0) {
        long count = o.word(kind[2]);
        long list = o.word(kind[1]);
        if (count >= minInvocations && list != 0) {
          delegates.add(new long[] {o.address(), count, list});
        }
      }
    }

    private long[] kindOf(ClrType t) {
      if (t.isFree()) {
        return new long[] {0};
      }
      if (t.isString()) {
        return new long[] {strings ? STRING : 0};
      }
      String name = t.name();
      if (t.isArray()) {
        return new long[] {
          referenceArrays && t.containsPointers() && t.componentSize() == 8 ? REFERENCE_ARRAY : 0
        };
      }
      if (collections
          && (name.startsWith(LIST) || name.startsWith(DICTIONARY) || name.startsWith(HASH_SET))
          // Not a nested type (Dictionary's Entry).
          && name.indexOf('+') < 0) {
        return new long[] {COLLECTION};
      }
      if (minInvocations > 0 && t.containsPointers()) {
        ClrField list = t.field("_invocationList");
        ClrField count = list == null ? null : t.field("_invocationCount");
        if (count != null) {
          // Field offsets count from after the method table; HeapObject.word from the start.
          return new long[] {DELEGATE, 8L + list.offset(), 8L + count.offset()};
        }
      }
      return new long[] {0};
    }

    private void string(HeapObject o) {
      String value = chars(o);
      Integer id = valueIds.get(value);
      if (id == null) {
        id = values.size();
        valueIds.put(value, id);
        values.add(value);
        valueSizeAndSample.add(new long[] {o.size(), o.address()});
      }
      if (stringCount == stringAddresses.length) {
        stringAddresses = Arrays.copyOf(stringAddresses, stringCount * 2);
        stringValues = Arrays.copyOf(stringValues, stringCount * 2);
      }
      stringAddresses[stringCount] = o.address();
      stringValues[stringCount++] = id;
    }

    private void nulls(HeapObject o) {
      long length = o.count();
      long nulls = 0;
      for (long i = 0; i < length; i++) {
        // Elements from 16: method table, length and its padding before them.
        if (o.word(16 + 8 * i) == 0) {
          nulls++;
        }
      }
      if (nulls > 0) {
        arrays.add(new Fill(o.type().name(), o.address(), length, length - nulls, nulls * 8));
      }
    }

    /** The values that {@code minCount} or more live strings hold, most wasted bytes first. */
    public List<Duplicate> duplicates(LongPredicate live, int minCount) {
      long[] count = new long[values.size()];
      long[] sample = new long[values.size()];
      for (int i = 0; i < stringCount; i++) {
        if (live.test(stringAddresses[i])) {
          int v = stringValues[i];
          if (count[v]++ == 0) {
            sample[v] = stringAddresses[i];
          }
        }
      }
      List<Duplicate> out = new ArrayList<>();
      for (int v = 0; v < values.size(); v++) {
        if (count[v] >= Math.max(2, minCount)) {
          out.add(new Duplicate(values.get(v), count[v], valueSizeAndSample.get(v)[0], sample[v]));
        }
      }
      out.sort(
          Comparator.comparingLong(Duplicate::wastedBytes)
              .reversed()
              .thenComparing(Duplicate::value));
      return out;
    }

    /**
     * The live collections, and arrays of references if the scan counted them, with a slot or more
     * unused: a list's backing array against its size, a dictionary's or hash set's entries against
     * its count.
     */
    public List<Fill> fill(LongPredicate live) {
      List<Fill> out = new ArrayList<>();
      for (Fill a : arrays) {
        if (live.test(a.address())) {
          out.add(a);
        }
      }
      for (long address : collectionAddresses) {
        if (!live.test(address)) {
          continue;
        }
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

    /** The live delegates whose invocation lists the scan set aside, most methods first. */
    public List<InvocationList> invocationLists(LongPredicate live) {
      List<InvocationList> out = new ArrayList<>();
      for (long[] d : delegates) {
        if (!live.test(d[0])) {
          continue;
        }
        try {
          if (!heap.object(d[2]).type().isArray()) {
            continue;
          }
          ClrObject delegate = heap.object(d[0]);
          out.add(
              new InvocationList(
                  d[0],
                  delegate.type().name(),
                  delegate.size(),
                  d[1],
                  heap.runtime().delegateMethod(delegate)));
        } catch (TargetException e) {
          // Not a delegate's list after all (a torn object in a live heap): left out.
        }
      }
      out.sort(Comparator.comparingLong(InvocationList::count).reversed());
      return out;
    }

    /** The large object heap's space. */
    public LargeObjectSpace largeObjectHeap() {
      return new LargeObjectSpace(large[0], large[1], large[2]);
    }
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
}
