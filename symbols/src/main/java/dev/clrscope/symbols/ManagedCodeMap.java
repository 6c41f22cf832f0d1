package dev.clrscope.symbols;

import dev.clrscope.nettrace.TraceEvent;
import dev.clrscope.nettrace.events.RuntimeEvent;
import dev.clrscope.nettrace.events.RuntimeEvents;
import dev.clrscope.nettrace.events.RuntimePayload;
import java.util.Arrays;
import java.util.Optional;

/**
 * The code ranges of managed methods, from a trace's method events: MethodLoadVerbose while it ran
 * (JIT'd code), and the rundown's MethodDCStart/EndVerbose at its start or end, which also lists
 * the ReadyToRun (precompiled) methods whose entry points the runtime had resolved. Each gives a
 * start address, a size and the method's namespace, name and signature.
 *
 * <p>The ranges are kept in parallel primitive arrays sorted by start address and looked up by
 * binary search: one entry per method, never one per address. Methods added after a lookup are
 * sorted and merged in at the next lookup, so a live session can feed and look up in turns; a
 * method whose code starts where an earlier one's did (a re-JIT, a tier-up at the same address)
 * replaces it. Not thread-safe.
 */
public final class ManagedCodeMap {
  /** MethodLoadVerbose/UnloadVerbose; in the rundown MethodDCStart/DCEndVerbose. */
  private static final int LOAD_VERBOSE = RuntimeEvent.Runtime.METHOD_LOAD_VERBOSE;

  private static final int UNLOAD_VERBOSE = RuntimeEvent.Runtime.METHOD_UNLOAD_VERBOSE;

  /** Start addresses with the sign bit flipped, so that signed order is unsigned order. */
  private long[] keys = new long[1024];

  private int[] sizes = new int[1024];
  private String[] namespaces = new String[1024];
  private String[] names = new String[1024];
  private String[] signatures = new String[1024];
  private int count;
  private int sortedCount;

  /** Takes the method's code range from {@code e} if it is a method load or rundown event. */
  public void accept(TraceEvent e) {
    int id = e.eventId();
    if (id != LOAD_VERBOSE && id != UNLOAD_VERBOSE) {
      return;
    }
    String provider = e.providerName();
    if (!RuntimeEvents.RUNTIME_PROVIDER.equals(provider)
        && !RuntimeEvents.RUNDOWN_PROVIDER.equals(provider)) {
      return;
    }
    Optional<RuntimePayload> decoded;
    try {
      decoded = RuntimeEvents.decode(e);
    } catch (RuntimeException ex) {
      // One malformed payload loses one name, not the analysis.
      return;
    }
    if (decoded.isPresent() && decoded.get() instanceof RuntimePayload.MethodLoadVerbose m) {
      add(
          m.methodStartAddress(),
          m.methodSize(),
          m.methodNamespace(),
          m.methodName(),
          m.methodSignature());
    }
  }

  /**
   * Adds a method's code range; an empty range (no code, size 0) is ignored.
   *
   * @param size in bytes, an unsigned 32-bit value
   */
  public void add(long start, long size, String namespace, String name, String signature) {
    if (start == 0 || size <= 0 || size > 0xFFFF_FFFFL) {
      return;
    }
    if (count == keys.length) {
      int n = count * 2;
      keys = Arrays.copyOf(keys, n);
      sizes = Arrays.copyOf(sizes, n);
      namespaces = Arrays.copyOf(namespaces, n);
      names = Arrays.copyOf(names, n);
      signatures = Arrays.copyOf(signatures, n);
    }
    keys[count] = start ^ Long.MIN_VALUE;
    sizes[count] = (int) size;
    namespaces[count] = namespace == null ? "" : namespace;
    names[count] = name == null ? "" : name;
    signatures[count] = signature == null ? "" : signature;
    count++;
  }

  /**
   * The index of the method whose code holds {@code ip}, or -1; valid until the next {@link #add}.
   */
  public int indexOf(long ip) {
    if (sortedCount != count) {
      sort();
    }
    long key = ip ^ Long.MIN_VALUE;
    int lo = 0;
    int hi = count - 1;
    while (lo <= hi) {
      int mid = (lo + hi) >>> 1;
      if (keys[mid] <= key) {
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    if (hi < 0) {
      return -1;
    }
    long offset = key - keys[hi];
    return offset < Integer.toUnsignedLong(sizes[hi]) ? hi : -1;
  }

  /** The display name of method {@code index} ({@link MethodNames#of}). */
  public String name(int index, boolean withSignature) {
    return MethodNames.of(namespaces[index], names[index], signatures[index], withSignature);
  }

  /** The method containing {@code ip} without its signature, or {@code null}. */
  public String nameOrNull(long ip) {
    int i = indexOf(ip);
    return i < 0 ? null : name(i, false);
  }

  /** The start address of method {@code index}. */
  public long start(int index) {
    return keys[index] ^ Long.MIN_VALUE;
  }

  /** Number of known methods (distinct start addresses once looked up). */
  public int size() {
    if (sortedCount != count) {
      sort();
    }
    return count;
  }

  /**
   * Sorts the entries added since the last lookup and merges them into the sorted ones; of two
   * entries with the same start, the later one stays.
   */
  private void sort() {
    int tail = count - sortedCount;
    Integer[] order = new Integer[tail];
    for (int i = 0; i < tail; i++) {
      order[i] = sortedCount + i;
    }
    // Stable: equal starts keep their arrival order, so the last one wins below.
    Arrays.sort(order, (a, b) -> Long.compare(keys[a], keys[b]));
    long[] k = new long[Math.max(count, 16)];
    int[] s = new int[k.length];
    String[] ns = new String[k.length];
    String[] n = new String[k.length];
    String[] sig = new String[k.length];
    int i = 0;
    int j = 0;
    int out = 0;
    while (i < sortedCount || j < tail) {
      int from;
      if (j >= tail || (i < sortedCount && keys[i] <= keys[order[j]])) {
        from = i++;
      } else {
        from = order[j++];
      }
      if (out > 0 && k[out - 1] == keys[from]) {
        out--; // a newer entry for the same start replaces the older one
      }
      k[out] = keys[from];
      s[out] = sizes[from];
      ns[out] = namespaces[from];
      n[out] = names[from];
      sig[out] = signatures[from];
      out++;
    }
    keys = k;
    sizes = s;
    namespaces = ns;
    names = n;
    signatures = sig;
    count = out;
    sortedCount = out;
  }
}
