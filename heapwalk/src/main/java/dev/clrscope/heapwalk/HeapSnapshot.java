package dev.clrscope.heapwalk;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A managed heap as one forced GC walked it: every object (address, size, type), the graph of
 * references between them by object index, and the roots. Everything lives in primitive arrays, one
 * entry per object or reference, never an object each: ten million objects and thirty million
 * references take about 360 MB.
 *
 * <pre>
 *  object i:    address[i]  size[i] (-1: in bigSizes)  type[i] (an index into typeNames)
 *               references target[first[i]] .. target[first[i+1]-1]   (object indexes: its own
 *               references, then what its dependent handles keep alive)
 *  roots:       rootTarget[j]: the roots' objects, then the objects nothing references
 *               rootOfEdge[j]: the root's number (kind rootKind[r], name rootNames[r]), or -1 for
 *               an object nothing references (the runtime's frozen objects)
 *  root kinds:  0 stack, 1 finalizer queue, 2 handle, 3 older, 4 sized ref, 5 overflow,
 *               6 static field, 7 a .gcdump's root node
 * </pre>
 *
 * The dominator tree is rooted at a node of its own, index {@code objectCount()}, whose successors
 * are the roots.
 */
public final class HeapSnapshot {
  private final long gcNumber;
  private final long[] address;
  private final int[] size;
  private final Map<Integer, Long> bigSizes;
  private final int[] type;
  private final String[] typeNames;

  /** Each type as given to the constructor: its index among the distinct names. */
  private final int[] mergedType;

  private final String[] typeModules;
  private final int[] first;
  private final int[] target;
  private final int[] rootTarget;
  private final int[] rootOfEdge;
  private final byte[] rootKind;
  private final Map<Integer, String> rootNames;
  private final long outside;
  private final long[] generationSizes;
  private final WalkProblems problems;

  /** Whether the roots are exact (a core's, through the DAC): garbage stays unreachable. */
  private final boolean exactRoots;

  /**
   * Links the parts into the graph. {@code objectFirst} and {@code objectTarget} are taken over
   * (compacted in place) rather than copied: a heap's references are its biggest array.
   *
   * @param size each object's size, -1 where it is in {@code bigSizes} (2 GB and more)
   * @param type each object's type, an index into {@code typeNames} (names may repeat: types of one
   *     name are merged)
   * @param typeModules each type's module file, or null where unknown
   * @param objectFirst offsets into {@code objectTarget}, one more entry than there are objects
   * @param objectTarget each object's references by object index, -1 where the reference leads to
   *     no object of the walk (left out)
   * @param dependentKey dependent handles' keys by object index (-1: not in the walk)
   * @param dependentValue and their values
   * @param rootObject each root's object index (-1: not in the walk)
   * @param rootKind each root's kind
   * @param outside how many references lead out of the walk (null references not counted)
   * @param unreferencedAreRoots whether objects that nothing references and no root names hang off
   *     the roots (an event walk's frozen objects) or are left unreachable (exact roots: garbage)
   */
  HeapSnapshot(
      long gcNumber,
      long[] address,
      int[] size,
      Map<Integer, Long> bigSizes,
      int[] type,
      String[] typeNames,
      String[] typeModules,
      int[] objectFirst,
      int[] objectTarget,
      int[] dependentKey,
      int[] dependentValue,
      int[] rootObject,
      byte[] rootKind,
      Map<Integer, String> rootNames,
      long outside,
      long[] generationSizes,
      WalkProblems problems,
      boolean unreferencedAreRoots) {
    this.gcNumber = gcNumber;
    this.address = address;
    this.size = size;
    this.bigSizes = Map.copyOf(bigSizes);
    this.type = type;
    this.mergedType = new int[typeNames.length];
    this.typeNames = mergeTypesByName(type, typeNames, mergedType);
    this.typeModules = mergeModules(mergedType, typeModules, this.typeNames.length);
    this.rootKind = rootKind;
    this.rootNames = Map.copyOf(rootNames);
    this.outside = outside;
    this.generationSizes = generationSizes == null ? null : generationSizes.clone();
    this.problems = problems;
    this.exactRoots = !unreferencedAreRoots;
    int n = address.length;
    // One pass marks what is referenced and finds references to nothing of the walk; only then
    // are they taken out, in place.
    boolean[] referenced = new boolean[n];
    boolean outsiders = false;
    for (int k = 0, end = objectFirst[n]; k < end; k++) {
      int t = objectTarget[k];
      if (t >= 0) {
        referenced[t] = true;
      } else {
        outsiders = true;
      }
    }
    if (outsiders) {
      int m = 0;
      for (int i = 0; i < n; i++) {
        int from = objectFirst[i];
        objectFirst[i] = m;
        for (int k = from; k < objectFirst[i + 1]; k++) {
          if (objectTarget[k] >= 0) {
            objectTarget[m++] = objectTarget[k];
          }
        }
      }
      objectFirst[n] = m;
    }
    for (int h = 0; h < dependentKey.length; h++) {
      if (dependentKey[h] >= 0 && dependentValue[h] >= 0) {
        referenced[dependentValue[h]] = true;
      }
    }
    int[] merged = withDependents(objectFirst, objectTarget, dependentKey, dependentValue, n);
    this.first = objectFirst;
    this.target = merged;
    int rootEdges = 0;
    for (int o : rootObject) {
      if (o >= 0) {
        referenced[o] = true;
        rootEdges++;
      }
    }
    int unreferenced = 0;
    if (unreferencedAreRoots) {
      for (boolean r : referenced) {
        if (!r) {
          unreferenced++;
        }
      }
    }
    // Objects that nothing references and no root names are alive all the same: the runtime's
    // frozen objects (string literals, type objects, which code refers to directly). They hang
    // off the roots, so that they and what they hold count somewhere.
    this.rootTarget = new int[rootEdges + unreferenced];
    this.rootOfEdge = new int[rootEdges + unreferenced];
    int j = 0;
    for (int r = 0; r < rootObject.length; r++) {
      if (rootObject[r] >= 0) {
        rootTarget[j] = rootObject[r];
        rootOfEdge[j++] = r;
      }
    }
    for (int i = 0; i < n && unreferenced > 0; i++) {
      if (!referenced[i]) {
        rootTarget[j] = i;
        rootOfEdge[j++] = -1;
      }
    }
  }

  /**
   * The references with each dependent handle's value added to its key's: {@code target} itself
   * when there are none (the usual case), else a new array, {@code first} renumbered.
   */
  private static int[] withDependents(
      int[] first, int[] target, int[] dependentKey, int[] dependentValue, int n) {
    int count = 0;
    for (int h = 0; h < dependentKey.length; h++) {
      if (dependentKey[h] >= 0 && dependentValue[h] >= 0) {
        count++;
      }
    }
    if (count == 0) {
      return target;
    }
    int[] dependentsOf = new int[n + 1];
    for (int h = 0; h < dependentKey.length; h++) {
      if (dependentKey[h] >= 0 && dependentValue[h] >= 0) {
        dependentsOf[dependentKey[h] + 1]++;
      }
    }
    if ((long) first[n] + count > Integer.MAX_VALUE - 8) {
      throw new IllegalArgumentException("more references than one snapshot can hold");
    }
    for (int i = 0; i < n; i++) {
      dependentsOf[i + 1] += dependentsOf[i];
    }
    int[] values = new int[count];
    int[] fill = Arrays.copyOf(dependentsOf, n);
    for (int h = 0; h < dependentKey.length; h++) {
      if (dependentKey[h] >= 0 && dependentValue[h] >= 0) {
        values[fill[dependentKey[h]]++] = dependentValue[h];
      }
    }
    int[] merged = new int[first[n] + count];
    int m = 0;
    for (int i = 0; i < n; i++) {
      int from = first[i];
      int to = first[i + 1];
      first[i] = m;
      System.arraycopy(target, from, merged, m, to - from);
      m += to - from;
      for (int h = dependentsOf[i]; h < dependentsOf[i + 1]; h++) {
        merged[m++] = values[h];
      }
    }
    first[n] = m;
    return merged;
  }

  /**
   * Gives types of one name one index, renumbering {@code type} in place; the distinct names.
   * {@code merged} receives each given type's distinct index.
   */
  private static String[] mergeTypesByName(int[] type, String[] names, int[] merged) {
    Map<String, Integer> byName = new HashMap<>();
    List<String> distinct = new ArrayList<>();
    for (int t = 0; t < names.length; t++) {
      Integer to = byName.putIfAbsent(names[t], distinct.size());
      if (to == null) {
        merged[t] = distinct.size();
        distinct.add(names[t]);
      } else {
        merged[t] = to;
      }
    }
    if (distinct.size() < names.length) {
      for (int i = 0; i < type.length; i++) {
        type[i] = merged[type[i]];
      }
    }
    return distinct.toArray(new String[0]);
  }

  /** Each distinct type's module: the first known among the given types of its name. */
  private static String[] mergeModules(int[] merged, String[] modules, int distinct) {
    String[] out = new String[distinct];
    for (int t = 0; t < merged.length; t++) {
      if (out[merged[t]] == null) {
        out[merged[t]] = modules[t];
      }
    }
    return out;
  }

  /**
   * {@code graph} with its types' modules, names made whole (null: none) and the GC's own sizes,
   * everything else shared.
   */
  private HeapSnapshot(
      HeapSnapshot graph, String[] typeModules, String[] wholeNames, long[] generationSizes) {
    this.gcNumber = graph.gcNumber;
    this.address = graph.address;
    this.size = graph.size;
    this.bigSizes = graph.bigSizes;
    this.type = graph.type;
    this.mergedType = graph.mergedType;
    this.typeNames = renamed(graph.typeNames, graph.mergedType, wholeNames);
    this.typeModules = mergeModules(mergedType, typeModules, typeNames.length);
    this.first = graph.first;
    this.target = graph.target;
    this.rootTarget = graph.rootTarget;
    this.rootOfEdge = graph.rootOfEdge;
    this.rootKind = graph.rootKind;
    this.rootNames = graph.rootNames;
    this.outside = graph.outside;
    this.generationSizes = generationSizes == null ? null : generationSizes.clone();
    this.problems = graph.problems;
    this.exactRoots = graph.exactRoots;
    this.inOrder = graph.inOrder;
  }

  /**
   * This snapshot with what a live walk learns after the graph: each type's module file ({@code
   * typeModules}, by the types as the builder gave them, before types of one name were merged), the
   * whole names of those the runtime named without the types they are declared in ({@code
   * wholeNames}, by the same types; null: none) and the GC's own generation sizes (null: unknown).
   */
  HeapSnapshot withEnding(String[] typeModules, String[] wholeNames, long[] generationSizes) {
    if (typeModules.length != mergedType.length
        || (wholeNames != null && wholeNames.length != mergedType.length)) {
      throw new IllegalArgumentException(
          typeModules.length + " modules for " + mergedType.length + " types");
    }
    return new HeapSnapshot(this, typeModules, wholeNames, generationSizes);
  }

  /** The distinct names with those made whole (by the types as given) put in. */
  private static String[] renamed(String[] names, int[] merged, String[] wholeNames) {
    if (wholeNames == null) {
      return names;
    }
    String[] out = names.clone();
    for (int t = 0; t < wholeNames.length; t++) {
      if (wholeNames[t] != null) {
        out[merged[t]] = wholeNames[t];
      }
    }
    return out;
  }

  /** Whether {@code other} is this graph (itself, or it with its ending: the same arrays). */
  boolean sameGraph(HeapSnapshot other) {
    return other.address == address && other.target == target && other.first == first;
  }

  /** The number of the GC that walked the heap; -1 for a file. */
  public long gcNumber() {
    return gcNumber;
  }

  /** How many objects the walk reported. */
  public int objectCount() {
    return address.length;
  }

  /** How many references between objects of the walk it holds (dependent handles included). */
  public long referenceCount() {
    return first[address.length];
  }

  /** How many roots it reported. */
  public int rootCount() {
    return rootKind.length;
  }

  /**
   * The GC's own sizes of its generations after the walk's GC (gen0, gen1, gen2, LOH, POH), from
   * its GCHeapStats event, to set the walk's total against; empty when unknown (a file).
   */
  public java.util.Optional<long[]> generationSizes() {
    return java.util.Optional.ofNullable(generationSizes).map(long[]::clone);
  }

  /** The sum of every object's size. */
  public long totalSize() {
    long total = 0;
    for (int i = 0; i < size.length; i++) {
      total += sizeOf(i);
    }
    return total;
  }

  /**
   * What does not add up: lost events (a gap in a stream's index), references left over or missing,
   * types without a name, the GC's end not seen, where an exact walk stopped. Empty for a whole
   * snapshot.
   */
  public List<String> problems() {
    return problems.details();
  }

  /**
   * The problems with, for an exact walk through the DAC, where it had to stop, by kind, and the
   * bytes of the heap it did not walk: a snapshot that holds less than the heap says so here.
   */
  public WalkProblems walkProblems() {
    return problems;
  }

  /**
   * Per type: how many objects, their total size and what they retain, largest retained first (then
   * total size, then name). Computes the dominator tree on first use.
   *
   * @return one row per type that has objects
   */
  public List<TypeStatistics> typeStatistics() {
    Dominators d = dominators();
    int types = typeNames.length;
    long[] count = new long[types];
    long[] total = new long[types];
    countByType(d, true, count, total);
    long[] retainedByType = retainedByType(d);
    List<TypeStatistics> rows = new ArrayList<>(types);
    for (int t = 0; t < types; t++) {
      String name = typeNames[t];
      if (count[t] == 0 || (total[t] == 0 && (name.startsWith("[") || name.equals("UNDEFINED")))) {
        continue; // a .gcdump's pseudo-nodes: roots and groups of roots, not objects
      }
      rows.add(new TypeStatistics(name, count[t], total[t], retainedByType[t]));
    }
    rows.sort(
        Comparator.comparingLong(TypeStatistics::retainedSize)
            .reversed()
            .thenComparing(Comparator.comparingLong(TypeStatistics::totalSize).reversed())
            .thenComparing(TypeStatistics::type));
    return rows;
  }

  /**
   * Per type, the objects no root reaches (garbage not yet collected): how many and their total
   * size, biggest first; their retained size is 0, as nothing live would be freed with them. Empty
   * when every object is reachable.
   */
  public List<TypeStatistics> unreachableTypeStatistics() {
    int types = typeNames.length;
    long[] count = new long[types];
    long[] total = new long[types];
    countByType(dominators(), false, count, total);
    List<TypeStatistics> rows = new ArrayList<>();
    for (int t = 0; t < types; t++) {
      if (count[t] > 0) {
        rows.add(new TypeStatistics(typeNames[t], count[t], total[t], 0));
      }
    }
    rows.sort(
        Comparator.comparingLong(TypeStatistics::totalSize)
            .reversed()
            .thenComparing(TypeStatistics::type));
    return rows;
  }

  /** Adds up, per type, the count and size of the objects the roots reach, or of the others. */
  private void countByType(Dominators d, boolean reached, long[] count, long[] total) {
    for (int i = 0; i < address.length; i++) {
      if (d.isDominated(i) == reached) {
        count[type[i]]++;
        total[type[i]] += sizeOf(i);
      }
    }
  }

  /**
   * Whether the roots are exact (a core or a paused process read through the DAC), so that objects
   * they do not reach are garbage; else (the runtime's walk in a GC, a .gcdump) everything is live.
   */
  public boolean hasExactRoots() {
    return exactRoots;
  }

  /** Whether a root reaches object {@code i}. */
  public boolean isReachable(int i) {
    return dominators().isDominated(i);
  }

  private AddressIndex addressIndex;

  /** Lookups answered by a binary search so far, and whether the addresses are in order. */
  private int searches;

  private Boolean inOrder;

  /** Says the objects are numbered in address order, as the walk that gave them knows. */
  void addressesInOrder() {
    inOrder = Boolean.TRUE;
  }

  /** Lookups answered without an index: a root path's few; a walk's millions get the index. */
  private static final int FEW_LOOKUPS = 4096;

  /** The number of the object at {@code address} (its start), or -1. */
  public synchronized int indexOf(long objectAddress) {
    if (addressIndex == null && searches < FEW_LOOKUPS) {
      if (inOrder == null) {
        boolean sorted = true;
        for (int i = 1; i < address.length && sorted; i++) {
          sorted = address[i - 1] < address[i];
        }
        inOrder = sorted;
      }
      if (inOrder) {
        searches++;
        int i = Arrays.binarySearch(address, objectAddress);
        return i >= 0 ? i : -1;
      }
    }
    if (addressIndex == null) {
      addressIndex = new AddressIndex(address);
    }
    return addressIndex.find(objectAddress);
  }

  /** What freeing object {@code i} would free: the size of all it dominates; 0 if unreachable. */
  public long retainedSize(int i) {
    Dominators d = dominators();
    int x = d.number(i);
    return x > 0 ? d.retainedByNumber(x) : 0;
  }

  /**
   * The objects object {@code i} alone keeps alive (itself included: what it dominates), per type:
   * count and total size, biggest first; empty when no root reaches it.
   */
  public List<TypeStatistics> retainedSet(int i) {
    Dominators d = dominators();
    if (!d.isDominated(i)) {
      return List.of();
    }
    Dominators.Children t = d.children();
    long[] count = new long[typeNames.length];
    long[] total = new long[typeNames.length];
    int[] stack = new int[d.reachableCount()];
    int top = 0;
    stack[top++] = d.number(i);
    while (top > 0) {
      int x = stack[--top];
      int v = d.node(x);
      count[type[v]]++;
      total[type[v]] += sizeOf(v);
      for (int k = t.start()[x]; k < t.start()[x + 1]; k++) {
        stack[top++] = t.numbers()[k];
      }
    }
    List<TypeStatistics> rows = new ArrayList<>();
    for (int x = 0; x < count.length; x++) {
      if (count[x] > 0) {
        rows.add(new TypeStatistics(typeNames[x], count[x], total[x], total[x]));
      }
    }
    rows.sort(
        Comparator.comparingLong(TypeStatistics::totalSize)
            .reversed()
            .thenComparing(TypeStatistics::type));
    return rows;
  }

  /**
   * The total size of the objects the roots reach: what the roots' node retains (its own size is
   * 0), summed with the dominator tree.
   */
  public long reachableSize() {
    return dominators().retainedByNumber(0);
  }

  /**
   * One step of a path from a root: the root itself ({@code object} -1, {@code root} its kind and
   * name) or an object.
   *
   * @param root for the first step, what holds the path: {@code static field NAME}, {@code stack},
   *     {@code handle}, {@code finalizer queue}, ..., {@code frozen object}; null for the others
   * @param type the object's type
   * @param address the object's address
   * @param size the object's own size
   */
  public record PathStep(String root, String type, long address, long size) {}

  /** Names of the runtime's GCRootKind values, and of {@link HeapSnapshotBuilder#STATIC_ROOT}. */
  private static final String[] ROOT_KINDS = {
    "stack",
    "finalizer queue",
    "handle",
    "older generation",
    "sized ref",
    "overflow",
    "static field",
    "root",
    "frozen object"
  };

  /**
   * The shortest paths from a root to objects whose type {@code matches}: one per object, nearest
   * objects first, at most {@code max}. Each path starts with the root's step (what holds it), then
   * the objects from the root's object to the one found.
   */
  public List<List<PathStep>> pathsTo(java.util.function.Predicate<String> matches, int max) {
    int n = address.length;
    int[] parent = new int[n];
    int[] viaRoot = new int[n];
    Arrays.fill(parent, -2);
    int[] queue = new int[n];
    int head = 0;
    int tail = 0;
    for (int j = 0; j < rootTarget.length; j++) {
      int v = rootTarget[j];
      if (parent[v] == -2) {
        parent[v] = -1;
        viaRoot[v] = rootOfEdge[j];
        queue[tail++] = v;
      }
    }
    Boolean[] typeMatches = new Boolean[typeNames.length];
    List<List<PathStep>> paths = new ArrayList<>();
    while (head < tail && paths.size() < max) {
      int v = queue[head++];
      int t = type[v];
      if (typeMatches[t] == null) {
        typeMatches[t] = matches.test(typeNames[t]);
      }
      if (typeMatches[t]) {
        paths.add(path(v, parent, viaRoot));
      }
      for (int k = first[v]; k < first[v + 1]; k++) {
        int w = target[k];
        if (parent[w] == -2) {
          parent[w] = v;
          queue[tail++] = w;
        }
      }
    }
    return paths;
  }

  private List<PathStep> path(int v, int[] parent, int[] viaRoot) {
    List<PathStep> steps = new ArrayList<>();
    int x = v;
    while (true) {
      steps.add(new PathStep(null, typeNameOf(x), address[x], sizeOf(x)));
      if (parent[x] == -1) {
        break;
      }
      x = parent[x];
    }
    int r = viaRoot[x];
    String root;
    if (r < 0) {
      root = "frozen object (nothing references it; the runtime keeps it)";
    } else {
      root = rootDescription(r);
    }
    steps.add(new PathStep(root, null, 0, 0));
    java.util.Collections.reverse(steps);
    return steps;
  }

  /** Root {@code r}'s kind in words, and its name where it has one. */
  String rootDescription(int r) {
    int kind = rootKind[r];
    String root = kind >= 0 && kind < ROOT_KINDS.length ? ROOT_KINDS[kind] : "root kind " + kind;
    String name = rootNames.get(r);
    return name != null ? root + " " + name : root;
  }

  /** How many objects the roots do not reach (their retained sizes count nowhere). */
  public int unreachableCount() {
    return address.length - (dominators().reachableCount() - 1);
  }

  /** References whose target is no object of the walk (frozen or unwalked memory). */
  public long referencesOutsideTheHeap() {
    return outside;
  }

  private volatile Dominators dominators;

  /**
   * The dominator tree from the roots' node (index {@code objectCount()}); built once. Read without
   * a lock once built: reports ask it once per object.
   */
  private Dominators dominators() {
    Dominators d = dominators;
    if (d == null) {
      synchronized (this) {
        d = dominators;
        if (d == null) {
          int n = address.length;
          d = Dominators.of(first, target, rootTarget, v -> v == n ? 0 : sizeOf(v), n);
          dominators = d;
        }
      }
    }
    return d;
  }

  /**
   * The objects object {@code i} dominates directly, its children in the dominator tree: what it
   * alone keeps alive, one level down. {@code i} = {@link #objectCount()} is the roots' node, whose
   * children are the objects only roots keep alive.
   */
  public int[] dominatedBy(int i) {
    Dominators d = dominators();
    int x = d.number(i);
    if (x < 0) {
      return new int[0];
    }
    Dominators.Children t = d.children();
    int[] out = new int[t.start()[x + 1] - t.start()[x]];
    for (int k = 0; k < out.length; k++) {
      out[k] = d.node(t.numbers()[t.start()[x] + k]);
    }
    return out;
  }

  /**
   * One node of the biggest retainers' tree.
   *
   * @param type the object's type
   * @param size its own size
   * @param retained what it retains
   * @param children the biggest it dominates
   * @param address its address
   */
  public record Retainer(
      String type, long size, long retained, List<Retainer> children, long address) {
    /** A node without its address (a .gcdump's objects have the file's). */
    public Retainer(String type, long size, long retained, List<Retainer> children) {
      this(type, size, retained, children, 0);
    }
  }

  /**
   * The dominator tree's biggest retainers: from the roots down to {@code depth} levels, at each
   * level the children that retain at least {@code minFraction} of the whole heap, biggest first,
   * at most {@code width} of them.
   */
  public List<Retainer> biggestRetainers(int depth, double minFraction, int width) {
    Dominators d = dominators();
    long floor = (long) Math.ceil(reachableSize() * minFraction);
    return retainers(d, d.children(), 0, depth, floor, width);
  }

  /** Retainers below the node numbered {@code x}. */
  private List<Retainer> retainers(
      Dominators d, Dominators.Children t, int x, int depth, long floor, int width) {
    if (depth <= 0) {
      return List.of();
    }
    List<Integer> kids = new ArrayList<>();
    for (int k = t.start()[x]; k < t.start()[x + 1]; k++) {
      if (d.retainedByNumber(t.numbers()[k]) >= Math.max(floor, 1)) {
        kids.add(t.numbers()[k]);
      }
    }
    kids.sort(Comparator.comparingLong((Integer c) -> d.retainedByNumber(c)).reversed());
    List<Retainer> out = new ArrayList<>();
    for (int c : kids.subList(0, Math.min(width, kids.size()))) {
      int v = d.node(c);
      out.add(
          new Retainer(
              typeNameOf(v),
              sizeOf(v),
              d.retainedByNumber(c),
              retainers(d, t, c, depth - 1, floor, width),
              address[v]));
    }
    return out;
  }

  /**
   * The heap as folded stacks for a flame graph: each object's own size under the path of types
   * that dominate it, from the roots down; identical paths added up. Paths deeper than {@code
   * maxDepth} are cut there (the rest is summed into the last frame).
   */
  public Map<String, Long> dominatorFlame(int maxDepth) {
    Dominators d = dominators();
    Dominators.Children t = d.children();
    int count = d.reachableCount();
    Map<String, Long> folded = new java.util.TreeMap<>();
    String[] frames = new String[maxDepth];
    // On depth-first numbers: the roots' node is 0.
    int[] stack = new int[count];
    int[] next = new int[count];
    int[] depthOf = new int[count];
    int top = 0;
    stack[top] = 0;
    next[top] = t.start()[0];
    depthOf[top++] = 0;
    while (top > 0) {
      int x = stack[top - 1];
      int level = depthOf[top - 1];
      if (next[top - 1] < t.start()[x + 1]) {
        int c = t.numbers()[next[top - 1]++];
        int v = d.node(c);
        int childLevel = Math.min(level + 1, maxDepth);
        if (level < maxDepth) {
          frames[level] = typeNameOf(v).replace(';', ',');
        }
        folded.merge(String.join(";", Arrays.copyOf(frames, childLevel)), sizeOf(v), Long::sum);
        stack[top] = c;
        next[top] = t.start()[c];
        depthOf[top++] = childLevel;
      } else {
        top--;
      }
    }
    return folded;
  }

  /** Per type, the retained sizes of its objects that no other object of the type dominates. */
  private long[] retainedByType(Dominators d) {
    return d.retainedByClass(type, typeNames.length);
  }

  /** Object {@code i}'s address. */
  public long addressOf(int i) {
    return address[i];
  }

  /** Object {@code i}'s size. */
  public long sizeOf(int i) {
    int s = size[i];
    return s >= 0 ? s : bigSizes.get(i);
  }

  /** Object {@code i}'s type name. */
  public String typeNameOf(int i) {
    return typeNames[type[i]];
  }

  /**
   * Object {@code i}'s type, as a number: objects of one type name have one number (an index into
   * {@link #typeNames()}), so a loop over millions of objects compares numbers, not names.
   */
  public int typeOf(int i) {
    return type[i];
  }

  /** Type {@code t}'s module file (from the rundown, or a .gcdump's type table), or null. */
  String typeModule(int t) {
    return typeModules[t];
  }

  /** The module file of the type named {@code type}, where the snapshot knows it. */
  public java.util.Optional<String> moduleOf(String type) {
    for (int t = 0; t < typeNames.length; t++) {
      if (typeNames[t].equals(type)) {
        return java.util.Optional.ofNullable(typeModules[t]);
      }
    }
    return java.util.Optional.empty();
  }

  /** The types' names, each once. */
  String[] typeNames() {
    return typeNames;
  }

  /** The references of object {@code i}, as object indexes (dependent handles' values included). */
  public int[] referencesOf(int i) {
    return Arrays.copyOfRange(target, first[i], first[i + 1]);
  }

  /**
   * Where object {@code i}'s references start in {@link #referenceAt}; {@code i + 1}'s end them.
   */
  int referencesStart(int i) {
    return first[i];
  }

  /** Reference {@code k} of the graph: an object index. */
  int referenceAt(int k) {
    return target[k];
  }

  /**
   * Every reference of the graph ({@link #referenceAt}), not copied: for the writer's loops, which
   * the quick compiler runs without inlining a call per reference. Not to be changed.
   */
  int[] targets() {
    return target;
  }

  /** The roots' references: each root's object, then the objects nothing references. */
  int[] rootReferences() {
    return rootTarget.clone();
  }

  /** For each of {@link #rootReferences()}, the root's number, or -1 (nothing references it). */
  int rootOfReference(int j) {
    return rootOfEdge[j];
  }

  /** Root {@code r}'s kind (the runtime's GCRootKind, or the builder's own kinds). */
  public int rootKindOf(int r) {
    return rootKind[r];
  }

  /** Root {@code r}'s name (a static field's), or null. */
  String rootNameOf(int r) {
    return rootNames.get(r);
  }

  /** How many of the roots are of {@code kind}. */
  public int rootsOfKind(int kind) {
    int n = 0;
    for (byte k : rootKind) {
      if (k == kind) {
        n++;
      }
    }
    return n;
  }
}
