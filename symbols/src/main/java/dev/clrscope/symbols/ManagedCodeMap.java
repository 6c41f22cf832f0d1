package dev.clrscope.symbols;

import dev.clrscope.nettrace.TraceEvent;
import dev.clrscope.nettrace.events.RuntimeEvent;
import dev.clrscope.nettrace.events.RuntimeEvents;
import dev.clrscope.nettrace.events.RuntimePayload;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
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
 * replaces it.
 *
 * <p>With {@link #withLines}, it also keeps what source lines take: each method's token and module,
 * the modules' paths and PDB ids (ModuleLoad_V2, the rundown's ModuleDCStart/End_V2), and each code
 * version's IL-to-native map (MethodILToNativeMap, the rundown's MethodDCStart/EndILToNativeMap),
 * paired with the load or rundown event of the same method and code version (MethodID and ReJITID:
 * the rundown sends the map first, a JIT its load first), so that {@link #lineOf} turns an address
 * into a line. Not thread-safe.
 */
public final class ManagedCodeMap {
  /** MethodLoadVerbose/UnloadVerbose; in the rundown MethodDCStart/DCEndVerbose. */
  private static final int LOAD_VERBOSE = RuntimeEvent.Runtime.METHOD_LOAD_VERBOSE;

  private static final int UNLOAD_VERBOSE = RuntimeEvent.Runtime.METHOD_UNLOAD_VERBOSE;

  private static final int IL_MAP = RuntimeEvent.Runtime.METHOD_IL_TO_NATIVE_MAP;
  private static final int MODULE_LOAD = RuntimeEvent.Runtime.MODULE_LOAD;
  private static final int DC_START_IL_MAP = RuntimeEvent.Rundown.METHOD_DC_START_IL_TO_NATIVE_MAP;
  private static final int DC_END_IL_MAP = RuntimeEvent.Rundown.METHOD_DC_END_IL_TO_NATIVE_MAP;
  private static final int MODULE_DC_START = RuntimeEvent.Rundown.MODULE_DC_START;
  private static final int MODULE_DC_END = RuntimeEvent.Rundown.MODULE_DC_END;

  /** Start addresses with the sign bit flipped, so that signed order is unsigned order. */
  private long[] keys = new long[1024];

  private int[] sizes = new int[1024];
  private String[] namespaces = new String[1024];
  private String[] names = new String[1024];
  private String[] signatures = new String[1024];
  private long[] moduleIds = new long[1024];
  private int[] tokens = new int[1024];
  private int count;
  private int sortedCount;

  /** Null unless lines are wanted: then the modules, IL maps and where PDBs are found. */
  private Lines lines;

  /** What lines take, kept only when they are wanted. */
  private static final class Lines {
    final SourceLines source;
    final Map<Long, ManagedModule> modules = new HashMap<>();

    /** Where each code version's code starts, by its load or rundown event. */
    final Map<CodeVersion, Long> starts = new HashMap<>();

    /** Maps whose load event has not come yet (the rundown sends the map first). */
    final Map<CodeVersion, IlMap> waiting = new HashMap<>();

    final Map<Long, IlMap> mapsByStart = new HashMap<>();

    Lines(SourceLines source) {
      this.source = source;
    }
  }

  /** A method's code version, as its events name it: MethodID and ReJITID. */
  private record CodeVersion(long methodId, long reJitId) {
    // Written out: see SourceLine.
    @Override
    public boolean equals(Object o) {
      return o instanceof CodeVersion v && v.methodId == methodId && v.reJitId == reJitId;
    }

    @Override
    public int hashCode() {
      return Long.hashCode(methodId * 31 + reJitId);
    }
  }

  /** One code version's IL-to-native map, sorted by native offset. */
  private static final class IlMap {
    final int[] codeOffsets;
    final int[] ilOffsets;

    IlMap(int[] nativeOffsets, int[] ilOffsets) {
      Integer[] order = new Integer[nativeOffsets.length];
      for (int i = 0; i < order.length; i++) {
        order[i] = i;
      }
      // Stable: entries at one native offset keep the runtime's order.
      Arrays.sort(order, (a, b) -> Integer.compareUnsigned(nativeOffsets[a], nativeOffsets[b]));
      codeOffsets = new int[order.length];
      this.ilOffsets = new int[order.length];
      for (int i = 0; i < order.length; i++) {
        codeOffsets[i] = nativeOffsets[order[i]];
        this.ilOffsets[i] = ilOffsets[order[i]];
      }
    }

    /**
     * The IL offset of the instruction at native offset {@code offset}: the last entry at or before
     * it; code of no IL instruction (a prolog, an epilog, no mapping) takes the nearest instruction
     * before it, and a prolog at the start the method's first; -1 for no entry.
     */
    int ilOffsetAt(long offset) {
      int lo = 0;
      int hi = codeOffsets.length - 1;
      while (lo <= hi) {
        int mid = (lo + hi) >>> 1;
        if (Integer.toUnsignedLong(codeOffsets[mid]) <= offset) {
          lo = mid + 1;
        } else {
          hi = mid - 1;
        }
      }
      for (int i = hi; i >= 0; i--) {
        if (ilOffsets[i] >= 0) {
          return ilOffsets[i];
        }
      }
      return codeOffsets.length == 0 ? -1 : 0;
    }
  }

  /**
   * Keeps what source lines take from now on (feed the events after this call), and finds PDBs
   * through {@code source}.
   */
  public ManagedCodeMap withLines(SourceLines source) {
    lines = new Lines(source);
    return this;
  }

  /** Whether lines are kept. */
  public boolean hasLines() {
    return lines != null;
  }

  /** The PDB problems met so far (one line each), for the caller to warn about. */
  public java.util.List<String> lineProblems() {
    return lines == null ? java.util.List.of() : lines.source.problems();
  }

  /** Takes the method's code range from {@code e} if it is a method load or rundown event. */
  public void accept(TraceEvent e) {
    int id = e.eventId();
    if (id != LOAD_VERBOSE && id != UNLOAD_VERBOSE && (lines == null || !forLines(e, id))) {
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
    if (decoded.isEmpty()) {
      return;
    }
    if (decoded.get() instanceof RuntimePayload.MethodLoadVerbose m) {
      add(
          m.methodStartAddress(),
          m.methodSize(),
          m.methodNamespace(),
          m.methodName(),
          m.methodSignature(),
          m.moduleId(),
          (int) m.methodToken());
      if (lines != null && m.methodStartAddress() != 0) {
        CodeVersion v = new CodeVersion(m.methodId(), m.reJitId());
        lines.starts.put(v, m.methodStartAddress());
        IlMap map = lines.waiting.remove(v);
        if (map != null) {
          lines.mapsByStart.put(m.methodStartAddress(), map);
        }
      }
    } else if (lines != null
        && decoded.get() instanceof RuntimePayload.MethodIlToNativeMap map
        && map.methodExtent() == 0) {
      CodeVersion v = new CodeVersion(map.methodId(), map.reJitId());
      IlMap il = new IlMap(map.nativeOffsets(), map.ilOffsets());
      Long start = lines.starts.get(v);
      if (start != null) {
        lines.mapsByStart.put(start, il);
      } else {
        lines.waiting.put(v, il);
      }
    } else if (lines != null && decoded.get() instanceof RuntimePayload.ModuleLoad mod) {
      lines.modules.put(
          mod.moduleId(),
          new ManagedModule(
              mod.moduleIlPath(),
              mod.managedPdbSignature().isEmpty() ? null : PdbId.ofGuid(mod.managedPdbSignature()),
              mod.managedPdbBuildPath()));
    }
  }

  /** Whether {@code e}'s id is one of the events lines take, in its provider's numbering. */
  private static boolean forLines(TraceEvent e, int id) {
    if (RuntimeEvents.RUNTIME_PROVIDER.equals(e.providerName())) {
      return id == IL_MAP || id == MODULE_LOAD;
    }
    return id == DC_START_IL_MAP
        || id == DC_END_IL_MAP
        || id == MODULE_DC_START
        || id == MODULE_DC_END;
  }

  /**
   * The source line of the code at {@code ip}, or null: lines are not kept, no method or no IL map
   * covers it, or its module's PDB is not found or has no line there. For a return address, pass
   * the address of the call (the return address less one), as debuggers do.
   */
  public SourceLine lineOf(long ip) {
    if (lines == null) {
      return null;
    }
    int i = indexOf(ip);
    if (i < 0) {
      return null;
    }
    long start = start(i);
    IlMap map = lines.mapsByStart.get(start);
    if (map == null) {
      return null;
    }
    int il = map.ilOffsetAt(ip - start);
    ManagedModule module = lines.modules.get(moduleIds[i]);
    if (il < 0 || module == null) {
      return null;
    }
    return lines.source.lineOf(module, tokens[i], il);
  }

  /**
   * Adds a method's code range; an empty range (no code, size 0) is ignored.
   *
   * @param size in bytes, an unsigned 32-bit value
   */
  public void add(long start, long size, String namespace, String name, String signature) {
    add(start, size, namespace, name, signature, 0, 0);
  }

  /**
   * Adds a method's code range with its module (the runtime's ModuleID) and metadata token, which
   * source lines take; an empty range is ignored.
   */
  public void add(
      long start,
      long size,
      String namespace,
      String name,
      String signature,
      long moduleId,
      int token) {
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
      moduleIds = Arrays.copyOf(moduleIds, n);
      tokens = Arrays.copyOf(tokens, n);
    }
    keys[count] = start ^ Long.MIN_VALUE;
    moduleIds[count] = moduleId;
    tokens[count] = token;
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
    long[] mod = new long[k.length];
    int[] tok = new int[k.length];
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
      mod[out] = moduleIds[from];
      tok[out] = tokens[from];
      out++;
    }
    keys = k;
    sizes = s;
    namespaces = ns;
    names = n;
    signatures = sig;
    moduleIds = mod;
    tokens = tok;
    count = out;
    sortedCount = out;
  }
}
