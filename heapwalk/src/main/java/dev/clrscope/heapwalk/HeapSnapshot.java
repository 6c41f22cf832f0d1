package dev.clrscope.heapwalk;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A managed heap as one forced GC walked it: every object (address, size, type), its references in
 * node order, and the roots. Objects and references live in primitive arrays, one entry per object
 * or reference, never an object each.
 *
 * <pre>
 *  object i:  address[i]  size[i]  typeId[i]  edges firstEdge[i] .. firstEdge[i+1]-1
 *  edge j:    target[j]   (an object's address)
 *  root k:    rootAddress[k]  rootKind[k] (0 stack, 1 finalizer queue, 2 handle, 3 older, 4 sized ref,
 *                                          5 overflow, 6 static field)
 *  dependent handle h: dependentKey[h] keeps dependentValue[h] alive (an edge key -> value)
 * </pre>
 */
public final class HeapSnapshot {
  private final long gcNumber;
  private final long[] address;
  private final long[] size;
  private final long[] typeId;
  private final long[] firstEdge;
  private final long[] target;
  private final long[] rootAddress;
  private final byte[] rootKind;
  private final long[] dependentKey;
  private final long[] dependentValue;
  private final Map<Integer, String> rootNames;
  private final long[] generationSizes;
  private final Map<Long, String> typeNames;
  private final List<String> problems;

  HeapSnapshot(
      long gcNumber,
      long[] address,
      long[] size,
      long[] typeId,
      long[] firstEdge,
      long[] target,
      long[] rootAddress,
      byte[] rootKind,
      long[] dependentKey,
      long[] dependentValue,
      Map<Integer, String> rootNames,
      long[] generationSizes,
      Map<Long, String> typeNames,
      List<String> problems) {
    this.gcNumber = gcNumber;
    this.address = address;
    this.size = size;
    this.typeId = typeId;
    this.firstEdge = firstEdge;
    this.target = target;
    this.rootAddress = rootAddress;
    this.rootKind = rootKind;
    this.dependentKey = dependentKey;
    this.dependentValue = dependentValue;
    this.rootNames = Map.copyOf(rootNames);
    this.generationSizes = generationSizes == null ? null : generationSizes.clone();
    this.typeNames = Map.copyOf(typeNames);
    this.problems = List.copyOf(problems);
  }

  /** The number of the GC that walked the heap. */
  public long gcNumber() {
    return gcNumber;
  }

  /** How many objects the walk reported. */
  public int objectCount() {
    return address.length;
  }

  /** How many references between objects it reported. */
  public long referenceCount() {
    return target.length;
  }

  /** How many roots it reported. */
  public int rootCount() {
    return rootAddress.length;
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
    for (long s : size) {
      total += s;
    }
    return total;
  }

  /**
   * What does not add up: lost events (a gap in a stream's index), references left over or missing,
   * types without a name, the GC's end not seen. Empty for a whole snapshot.
   */
  public List<String> problems() {
    return problems;
  }

  /** The type's name as the runtime writes it, or {@code UNKNOWN 0x…} when it sent none. */
  public String typeName(long id) {
    String n = typeNames.get(id);
    return n != null ? n : "UNKNOWN 0x" + Long.toHexString(id);
  }

  /**
   * Per type: how many objects, their total size and what they retain, largest retained first (then
   * total size, then name). Computes the dominator tree on first use.
   *
   * @return one row per type that has objects
   */
  public List<TypeStatistics> typeStatistics() {
    Graph g = graph();
    // Types by name: a .gcdump may give one type several entries (its size buckets).
    Map<String, Integer> typeIndex = new HashMap<>();
    int[] typeOf = new int[address.length];
    List<String> typeIds = new ArrayList<>();
    for (int i = 0; i < address.length; i++) {
      String name = typeName(typeId[i]);
      Integer t = typeIndex.get(name);
      if (t == null) {
        t = typeIds.size();
        typeIndex.put(name, t);
        typeIds.add(name);
      }
      typeOf[i] = t;
    }
    long[] count = new long[typeIds.size()];
    long[] total = new long[typeIds.size()];
    for (int i = 0; i < address.length; i++) {
      count[typeOf[i]]++;
      total[typeOf[i]] += size[i];
    }
    long[] retainedByType = retainedByType(g, typeOf, typeIds.size());
    List<TypeStatistics> rows = new ArrayList<>(typeIds.size());
    for (int t = 0; t < typeIds.size(); t++) {
      String name = typeIds.get(t);
      if (total[t] == 0 && (name.startsWith("[") || name.equals("UNDEFINED"))) {
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

  /** Per type, how many of its objects the roots do not reach; for telling why. */
  public Map<String, Integer> unreachableByType() {
    Graph g = graph();
    Map<String, Integer> out = new java.util.TreeMap<>();
    for (int i = 0; i < address.length; i++) {
      if (g.dominators().idom(i) < 0) {
        out.merge(typeName(typeId[i]), 1, Integer::sum);
      }
    }
    return out;
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
    "static field"
  };

  /**
   * The shortest paths from a root to objects whose type {@code matches}: one per object, nearest
   * objects first, at most {@code max}. Each path starts with the root's step (what holds it), then
   * the objects from the root's object to the one found.
   */
  public List<List<PathStep>> pathsTo(java.util.function.Predicate<String> matches, int max) {
    Graph g = graph();
    int n = address.length;
    int[] parent = new int[n];
    int[] viaRoot = new int[n];
    Arrays.fill(parent, -2);
    int[] queue = new int[n];
    int head = 0;
    int tail = 0;
    for (long k = g.first()[n]; k < g.first()[n + 1]; k++) {
      int v = g.target()[(int) k];
      if (parent[v] == -2) {
        parent[v] = -1;
        viaRoot[v] = g.rootOfEdge()[(int) (k - g.first()[n])];
        queue[tail++] = v;
      }
    }
    Map<Long, Boolean> typeMatches = new HashMap<>();
    List<List<PathStep>> paths = new ArrayList<>();
    while (head < tail && paths.size() < max) {
      int v = queue[head++];
      if (typeMatches.computeIfAbsent(typeId[v], t -> matches.test(typeName(t)))) {
        paths.add(path(v, parent, viaRoot));
      }
      for (long k = g.first()[v]; k < g.first()[v + 1]; k++) {
        int w = g.target()[(int) k];
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
      steps.add(new PathStep(null, typeName(typeId[x]), address[x], size[x]));
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
      int kind = rootKind[r];
      root = kind >= 0 && kind < ROOT_KINDS.length ? ROOT_KINDS[kind] : "root kind " + kind;
      String name = rootNames.get(r);
      if (name != null) {
        root += " " + name;
      }
    }
    steps.add(new PathStep(root, null, 0, 0));
    java.util.Collections.reverse(steps);
    return steps;
  }

  /** How many objects the roots do not reach (their retained sizes count nowhere). */
  public int unreachableCount() {
    return address.length - (graph().dominators.reachableCount() - 1);
  }

  /** References whose target is no object of the walk (frozen or unwalked memory). */
  public long referencesOutsideTheHeap() {
    return graph().outside;
  }

  /**
   * The object graph by index, with a pseudo-node for the roots (index {@code objectCount()}), and
   * its dominators; built once.
   */
  private record Graph(
      long[] first, int[] target, int[] rootOfEdge, long outside, Dominators dominators) {}

  private Graph graph;

  private synchronized Graph graph() {
    if (graph != null) {
      return graph;
    }
    int n = address.length;
    // Objects by address: sorted addresses, and which object each sorted position is.
    long[] sorted = address.clone();
    Arrays.sort(sorted);
    int[] objectAt = new int[n];
    for (int i = 0; i < n; i++) {
      objectAt[Arrays.binarySearch(sorted, address[i])] = i;
    }
    // Dependent handles: the key's extra references, grouped by key object.
    int[] dependentsOf = new int[n + 1];
    int[] keyObject = new int[dependentKey.length];
    int[] valueObject = new int[dependentKey.length];
    for (int h = 0; h < dependentKey.length; h++) {
      int k = Arrays.binarySearch(sorted, dependentKey[h]);
      int v = Arrays.binarySearch(sorted, dependentValue[h]);
      keyObject[h] = k >= 0 && v >= 0 ? objectAt[k] : -1;
      valueObject[h] = v >= 0 ? objectAt[v] : -1;
      if (keyObject[h] >= 0) {
        dependentsOf[keyObject[h] + 1]++;
      }
    }
    for (int i = 0; i < n; i++) {
      dependentsOf[i + 1] += dependentsOf[i];
    }
    int[] dependentValues = new int[dependentsOf[n]];
    int[] fill = Arrays.copyOf(dependentsOf, n);
    for (int h = 0; h < dependentKey.length; h++) {
      if (keyObject[h] >= 0) {
        dependentValues[fill[keyObject[h]]++] = valueObject[h];
      }
    }
    long[] first = new long[n + 2];
    int[] targets = new int[target.length + rootAddress.length + dependentValues.length];
    int m = 0;
    long outside = 0;
    for (int i = 0; i < n; i++) {
      first[i] = m;
      for (long k = firstEdge[i]; k < firstEdge[i + 1]; k++) {
        int at = Arrays.binarySearch(sorted, target[(int) k]);
        if (at >= 0) {
          targets[m++] = objectAt[at];
        } else if (target[(int) k] != 0) {
          outside++;
        }
      }
      for (int h = dependentsOf[i]; h < dependentsOf[i + 1]; h++) {
        targets[m++] = dependentValues[h];
      }
    }
    first[n] = m;
    boolean[] referenced = new boolean[n];
    for (int k = 0; k < m; k++) {
      referenced[targets[k]] = true;
    }
    int unreferenced = 0;
    // Which root each of the roots' node's references is (-1: a frozen object).
    int[] rootOfEdge = new int[rootAddress.length + n];
    int rootEdges = 0;
    for (int r = 0; r < rootAddress.length; r++) {
      int at = Arrays.binarySearch(sorted, rootAddress[r]);
      if (at >= 0) {
        targets[m++] = objectAt[at];
        referenced[objectAt[at]] = true;
        rootOfEdge[rootEdges++] = r;
      }
    }
    for (boolean r : referenced) {
      if (!r) {
        unreferenced++;
      }
    }
    // Objects that nothing references and no root names are alive all the same: the runtime's
    // frozen objects (string literals, type objects, which code refers to directly). They hang
    // off the roots' node, so that they and what they hold count somewhere.
    if (unreferenced > 0) {
      targets = Arrays.copyOf(targets, m + unreferenced);
      for (int i = 0; i < n; i++) {
        if (!referenced[i]) {
          targets[m++] = i;
          rootOfEdge[rootEdges++] = -1;
        }
      }
    }
    first[n + 1] = m;
    long[] sizes = Arrays.copyOf(size, n + 1);
    graph =
        new Graph(
            first,
            targets,
            Arrays.copyOf(rootOfEdge, rootEdges),
            outside,
            Dominators.of(first, targets, sizes, n));
    return graph;
  }

  /**
   * Per type, the retained sizes of its objects that no other object of the type dominates: a walk
   * of the dominator tree that counts, per type, how many of a node's dominators have it.
   */
  /** The dominator tree's children of each node (the roots' node is {@code n}), as offsets. */
  private record Tree(int[] childStart, int[] children) {}

  private static Tree tree(Dominators d, int n) {
    int[] order = d.preorder();
    int[] childStart = new int[n + 2];
    for (int v : order) {
      int p = d.idom(v);
      if (p >= 0) {
        childStart[p + 1]++;
      }
    }
    for (int v = 0; v <= n; v++) {
      childStart[v + 1] += childStart[v];
    }
    int[] children = new int[childStart[n + 1]];
    int[] fill = Arrays.copyOf(childStart, n + 1);
    for (int v : order) {
      int p = d.idom(v);
      if (p >= 0) {
        children[fill[p]++] = v;
      }
    }
    return new Tree(childStart, children);
  }

  /**
   * One node of the biggest retainers' tree.
   *
   * @param type the object's type
   * @param size its own size
   * @param retained what it retains
   * @param children the biggest it dominates
   */
  public record Retainer(String type, long size, long retained, List<Retainer> children) {}

  /**
   * The dominator tree's biggest retainers: from the roots down to {@code depth} levels, at each
   * level the children that retain at least {@code minFraction} of the whole heap, biggest first,
   * at most {@code width} of them.
   */
  public List<Retainer> biggestRetainers(int depth, double minFraction, int width) {
    Graph g = graph();
    Tree t = tree(g.dominators(), address.length);
    long floor = (long) Math.ceil(totalSize() * minFraction);
    return retainers(g.dominators(), t, address.length, depth, floor, width);
  }

  private List<Retainer> retainers(Dominators d, Tree t, int v, int depth, long floor, int width) {
    if (depth <= 0) {
      return List.of();
    }
    List<Integer> kids = new ArrayList<>();
    for (int k = t.childStart()[v]; k < t.childStart()[v + 1]; k++) {
      if (d.retained(t.children()[k]) >= Math.max(floor, 1)) {
        kids.add(t.children()[k]);
      }
    }
    kids.sort(Comparator.comparingLong((Integer c) -> d.retained(c)).reversed());
    List<Retainer> out = new ArrayList<>();
    for (int c : kids.subList(0, Math.min(width, kids.size()))) {
      out.add(
          new Retainer(
              typeName(typeId[c]),
              size[c],
              d.retained(c),
              retainers(d, t, c, depth - 1, floor, width)));
    }
    return out;
  }

  /**
   * The heap as folded stacks for a flame graph: each object's own size under the path of types
   * that dominate it, from the roots down; identical paths added up. Paths deeper than {@code
   * maxDepth} are cut there (the rest is summed into the last frame).
   */
  public Map<String, Long> dominatorFlame(int maxDepth) {
    Graph g = graph();
    Dominators d = g.dominators();
    int n = address.length;
    Tree t = tree(d, n);
    Map<String, Long> folded = new java.util.TreeMap<>();
    String[] frames = new String[maxDepth];
    int[] stack = new int[n + 1];
    int[] next = new int[n + 1];
    int[] depthOf = new int[n + 1];
    int top = 0;
    stack[top] = n;
    next[top] = t.childStart()[n];
    depthOf[top++] = 0;
    while (top > 0) {
      int v = stack[top - 1];
      int level = depthOf[top - 1];
      if (next[top - 1] < t.childStart()[v + 1]) {
        int c = t.children()[next[top - 1]++];
        int childLevel = Math.min(level + 1, maxDepth);
        if (level < maxDepth) {
          frames[level] = typeName(typeId[c]).replace(';', ',');
        }
        folded.merge(String.join(";", Arrays.copyOf(frames, childLevel)), size[c], Long::sum);
        stack[top] = c;
        next[top] = t.childStart()[c];
        depthOf[top++] = childLevel;
      } else {
        top--;
      }
    }
    return folded;
  }

  private static long[] retainedByType(Graph g, int[] typeOf, int types) {
    Dominators d = g.dominators();
    int n = typeOf.length;
    Tree tree = tree(d, n);
    int[] childStart = tree.childStart();
    int[] children = tree.children();
    long[] result = new long[types];
    int[] active = new int[types];
    // Iterative depth-first walk from the roots' node: entering a node adds it to its type's count
    // of dominators on the current path, leaving removes it.
    int[] stack = new int[n + 1];
    int[] next = new int[n + 1];
    int top = 0;
    stack[top] = n;
    next[top++] = childStart[n];
    while (top > 0) {
      int v = stack[top - 1];
      if (next[top - 1] < childStart[v + 1]) {
        int c = children[next[top - 1]++];
        int t = typeOf[c];
        if (active[t] == 0) {
          result[t] += d.retained(c);
        }
        active[t]++;
        stack[top] = c;
        next[top++] = childStart[c];
      } else {
        top--;
        if (v != n) {
          active[typeOf[v]]--;
        }
      }
    }
    return result;
  }

  /** Object {@code i}'s address. */
  public long addressOf(int i) {
    return address[i];
  }

  /** Object {@code i}'s size. */
  public long sizeOf(int i) {
    return size[i];
  }

  /** Object {@code i}'s type name. */
  public String typeNameOf(int i) {
    return typeName(typeId[i]);
  }

  /** Root {@code r}'s object address. */
  public long rootAddressOf(int r) {
    return rootAddress[r];
  }

  /** Root {@code r}'s kind (the runtime's GCRootKind, or the builder's own kinds). */
  public int rootKindOf(int r) {
    return rootKind[r];
  }

  /** The references of object {@code i}: the addresses it points to. */
  public long[] referencesOf(int i) {
    return Arrays.copyOfRange(target, (int) firstEdge[i], (int) firstEdge[i + 1]);
  }

  /** The root kinds by their number in the runtime's GCBulkRootEdge events. */
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
