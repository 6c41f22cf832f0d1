package dev.clrscope.heapwalk;

import java.util.Arrays;
import java.util.function.IntToLongFunction;

/**
 * The dominator tree of a graph given as successor lists in primitive arrays, and the retained size
 * of every node: the Semi-NCA algorithm (Lengauer and Tarjan's semidominators by path compression,
 * then each immediate dominator as the nearest common ancestor of the node's parent and its
 * semidominator in the tree built so far). Every loop is iterative, so a heap of millions of
 * objects in long chains neither recurses nor allocates per node.
 *
 * <pre>
 *  node v's successors: target[first[v]] .. target[first[v+1]-1]   (node indexes)
 *  idom(v)     the immediate dominator (-1 for the root and for nodes it does not reach)
 *  retained(v) size(v) + the retained sizes of the nodes v immediately dominates
 * </pre>
 *
 * <p>Memory: the work is done on depth-first numbers, in seven int arrays of one entry per node and
 * one of one entry per edge (the predecessors); what is kept is three int arrays and one long array
 * per node. Ten million objects with thirty million references need about 400 MB at the peak.
 */
public final class Dominators {
  /** dfn[v]: v's depth-first number, -1 if the root does not reach v. */
  private final int[] dfn;

  /** vertex[i]: the node numbered i. */
  private final int[] vertex;

  /** idom[i]: the number of node i's immediate dominator (-1 for the root). */
  private final int[] idom;

  /** retained[i]: what node i retains. */
  private final long[] retained;

  private Dominators(int[] dfn, int[] vertex, int[] idom, long[] retained, Children children) {
    this.dfn = dfn;
    this.vertex = vertex;
    this.idom = idom;
    this.retained = retained;
    this.children = children;
  }

  /**
   * Computes the dominators of every node reachable from {@code root}.
   *
   * @param first successor offsets, one more entry than there are nodes
   * @param target successor node indexes
   * @param size each node's own size
   * @param root the start node
   */
  public static Dominators of(int[] first, int[] target, IntToLongFunction size, int root) {
    return of(first, target, null, size, root);
  }

  /**
   * Computes the dominators of a graph with one more node than {@code first} describes: node {@code
   * first.length - 1}, whose successors are {@code extra} (a heap's roots, kept apart so that the
   * objects' references need not be copied to add them).
   *
   * @param extra the extra node's successors, or null for no extra node
   */
  static Dominators of(int[] first, int[] target, int[] extra, IntToLongFunction size, int root) {
    return of(first, target, extra, size, root, first.length >= TWO_THREADS_FROM);
  }

  /**
   * From this many nodes, the predecessors are gathered on a thread of their own while the
   * depth-first search numbers the nodes: both are a pass over every reference, and a heap's graph
   * is computed while the other core has little to do.
   */
  static final int TWO_THREADS_FROM = 1 << 16;

  /**
   * As {@link #of(int[], int[], int[], IntToLongFunction, int)}, the predecessors gathered on a
   * second thread or not.
   */
  static Dominators of(
      int[] first,
      int[] target,
      int[] extra,
      IntToLongFunction size,
      int root,
      boolean twoThreads) {
    int n = first.length - (extra == null ? 1 : 0);
    int last = first.length - 1; // the extra node, when there is one
    Beside<Predecessors> gathered =
        Beside.run(
            "clrscope-dominators-predecessors",
            twoThreads,
            () -> Predecessors.of(first, target, extra, n, last));
    int[] dfn = new int[n];
    Arrays.fill(dfn, -1);
    int[] vertex = new int[n];
    // parent[i] (by number) becomes idom[i] in place: Semi-NCA starts each from the parent.
    int[] idom = new int[n];
    // The depth-first search's stack of nodes and each one's next edge, in arrays that are put to
    // their own use once the search is done.
    int[] stack = new int[n];
    int[] cursor = new int[n];
    int count = 0;
    int top = 0;
    dfn[root] = count;
    vertex[count] = root;
    idom[count++] = -1;
    stack[top] = root;
    cursor[top++] = extra != null && root == last ? 0 : first[root];
    while (top > 0) {
      int v = stack[top - 1];
      boolean isExtra = extra != null && v == last;
      int end = isExtra ? extra.length : first[v + 1];
      if (cursor[top - 1] < end) {
        int w = (isExtra ? extra : target)[cursor[top - 1]++];
        if (dfn[w] < 0) {
          dfn[w] = count;
          vertex[count] = w;
          idom[count++] = dfn[v];
          stack[top] = w;
          cursor[top++] = extra != null && w == last ? 0 : first[w];
        }
      } else {
        top--;
      }
    }
    Predecessors preds = gathered.get();
    int[] predStart = preds.start;
    int[] pred = preds.nodes;
    int[] ancestor = cursor;
    // Semidominators, from the last number down. Node i is in the forest of processed nodes once
    // the loop is below it, linked to its parent: ancestor starts as the parent, and "x is linked"
    // is x > i. best[x] is the least semidominator on x's compressed path.
    System.arraycopy(idom, 0, ancestor, 0, count);
    int[] semi = new int[count];
    int[] best = new int[count];
    int[] path = stack;
    for (int i = 0; i < count; i++) {
      semi[i] = i;
      best[i] = i;
    }
    for (int i = count - 1; i > 0; i--) {
      int s = i;
      int w = vertex[i];
      for (int k = predStart[w]; k < predStart[w + 1]; k++) {
        int v = dfn[pred[k]];
        if (v < 0) {
          continue; // a predecessor the root does not reach
        }
        int candidate = v <= i ? v : eval(v, i, ancestor, best, path);
        if (candidate < s) {
          s = candidate;
        }
      }
      semi[i] = s;
      best[i] = s;
    }
    pred = null;
    ancestor = null;
    predStart = null;
    best = null;
    path = null;
    // Immediate dominators in number order: from the parent up while above the semidominator.
    for (int i = 1; i < count; i++) {
      int x = idom[i];
      while (x > semi[i]) {
        x = idom[x];
      }
      idom[i] = x;
    }
    semi = null;
    int[] idoms = Arrays.copyOf(idom, count);
    int reached = count;
    // The tree's children (what reports read the tree by) on the second thread, while this one
    // sums the retained sizes: both only read the immediate dominators.
    Beside<Children> children =
        Beside.run("clrscope-dominators-children", twoThreads, () -> childrenOf(idoms, reached));
    // A node's dominator is numbered before it: sum the sizes up from the last.
    long[] retained = new long[count];
    for (int i = count - 1; i >= 0; i--) {
      retained[i] += size.applyAsLong(vertex[i]);
      if (i > 0) {
        retained[idoms[i]] += retained[i];
      }
    }
    return new Dominators(dfn, Arrays.copyOf(vertex, count), idoms, retained, children.get());
  }

  /**
   * Every node's predecessors, by node: {@code nodes[start[w]] .. nodes[start[w + 1] - 1]}, in
   * increasing order. Two passes over the references in their order (a count per target, then each
   * source put in place), which need nothing of the depth-first search.
   */
  private static final class Predecessors {
    final int[] start;
    final int[] nodes;

    private Predecessors(int[] start, int[] nodes) {
      this.start = start;
      this.nodes = nodes;
    }

    static Predecessors of(int[] first, int[] target, int[] extra, int n, int last) {
      int objects = first.length - 1;
      int edges = first[objects];
      int[] s = new int[n + 1];
      for (int k = 0; k < edges; k++) {
        s[target[k] + 1]++;
      }
      if (extra != null) {
        for (int w : extra) {
          s[w + 1]++;
        }
      }
      for (int w = 0; w < n; w++) {
        s[w + 1] += s[w];
      }
      int[] p = new int[s[n]];
      int[] fill = Arrays.copyOf(s, n);
      for (int v = 0; v < objects; v++) {
        for (int k = first[v]; k < first[v + 1]; k++) {
          p[fill[target[k]]++] = v;
        }
      }
      if (extra != null) {
        for (int w : extra) {
          p[fill[w]++] = last;
        }
      }
      return new Predecessors(s, p);
    }
  }

  /**
   * The least semidominator on the path from processed node {@code v} up to the first node whose
   * ancestor is not processed yet ({@code <= i}), compressing that path on the way back down.
   */
  private static int eval(int v, int i, int[] ancestor, int[] best, int[] path) {
    int length = 0;
    int x = v;
    while (ancestor[x] > i) {
      path[length++] = x;
      x = ancestor[x];
    }
    // path holds v .. the node just below x; compress from the top down.
    for (int k = length - 1; k >= 0; k--) {
      int y = path[k];
      int a = ancestor[y];
      if (best[a] < best[y]) {
        best[y] = best[a];
      }
      ancestor[y] = ancestor[a];
    }
    return best[v];
  }

  /** The immediate dominator of {@code v}, or -1 for the root and unreachable nodes. */
  public int idom(int v) {
    int i = dfn[v];
    return i <= 0 ? -1 : vertex[idom[i]];
  }

  /**
   * Whether the root reaches {@code v} and {@code v} is not the root: what {@code idom(v) >= 0}
   * says, without its second, random, read (a report asks it of every one of millions of nodes).
   */
  public boolean isDominated(int v) {
    return dfn[v] > 0;
  }

  /**
   * Per class of nodes, the retained sizes of its nodes that no other node of the class dominates
   * (a type's retained size: what freeing all its objects would free). A depth-first walk of the
   * dominator tree counts, per class, how many of the current node's dominators are of it. The work
   * is on depth-first numbers, where a node's dominator and its children are found in arrays read
   * in order rather than by two random reads per node.
   *
   * @param classOf each node's class, {@code 0 .. classes - 1}; nodes past its end (the root of a
   *     heap's roots) have none
   */
  public long[] retainedByClass(int[] classOf, int classes) {
    int count = vertex.length;
    int[] cls = new int[count];
    for (int i = 0; i < count; i++) {
      int v = vertex[i];
      cls[i] = v < classOf.length ? classOf[v] : -1;
    }
    Children tree = children();
    int[] childStart = tree.start();
    int[] kids = tree.numbers();
    int[] next = Arrays.copyOf(childStart, count);
    long[] result = new long[classes];
    int[] active = new int[classes];
    int[] stack = new int[count];
    int top = 0;
    if (count > 0) {
      stack[top++] = 0;
      if (cls[0] >= 0) {
        result[cls[0]] += retained[0];
        active[cls[0]]++;
      }
    }
    while (top > 0) {
      int v = stack[top - 1];
      if (next[v] < childStart[v + 1]) {
        int c = kids[next[v]++];
        int t = cls[c];
        if (t >= 0) {
          if (active[t] == 0) {
            result[t] += retained[c];
          }
          active[t]++;
        }
        stack[top++] = c;
      } else {
        top--;
        if (cls[v] >= 0) {
          active[cls[v]]--;
        }
      }
    }
    return result;
  }

  /**
   * The dominator tree's children by depth-first number: the children of the node numbered {@code
   * i} are numbered {@code numbers[start[i]] .. numbers[start[i + 1] - 1]}, in increasing order
   * (depth-first preorder). The root is numbered 0.
   */
  static final class Children {
    private final int[] start;
    private final int[] numbers;

    Children(int[] start, int[] numbers) {
      this.start = start;
      this.numbers = numbers;
    }

    int[] start() {
      return start;
    }

    int[] numbers() {
      return numbers;
    }
  }

  private final Children children;

  /** The dominator tree's children, listed with the tree. */
  Children children() {
    return children;
  }

  /** The children of the tree whose first {@code count} immediate dominators are {@code idom}. */
  private static Children childrenOf(int[] idom, int count) {
    int[] start = new int[count + 1];
    for (int i = 1; i < count; i++) {
      start[idom[i] + 1]++;
    }
    for (int i = 0; i < count; i++) {
      start[i + 1] += start[i];
    }
    int[] numbers = new int[Math.max(count - 1, 0)];
    int[] next = Arrays.copyOf(start, count);
    for (int i = 1; i < count; i++) {
      numbers[next[idom[i]]++] = i;
    }
    return new Children(start, numbers);
  }

  /** Node {@code v}'s depth-first number, -1 when the root does not reach it. */
  int number(int v) {
    return dfn[v];
  }

  /** The node numbered {@code i}. */
  int node(int i) {
    return vertex[i];
  }

  /** What the node numbered {@code i} retains. */
  long retainedByNumber(int i) {
    return retained[i];
  }

  /** What {@code v} retains: its size and everything only reachable through it. */
  public long retained(int v) {
    int i = dfn[v];
    return i < 0 ? 0 : retained[i];
  }

  /** How many nodes the root reaches (itself included). */
  public int reachableCount() {
    return vertex.length;
  }
}
