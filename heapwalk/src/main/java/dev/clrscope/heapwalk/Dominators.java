package dev.clrscope.heapwalk;

import java.util.Arrays;

/**
 * The dominator tree of a graph given as successor lists in primitive arrays, and the retained size
 * of every node: Lengauer and Tarjan's algorithm (the simple version, path compression without
 * balancing), with the depth-first search and the path compression written as loops, so that a heap
 * of millions of objects in long chains neither recurses nor allocates per node.
 *
 * <pre>
 *  node v's successors: target[first[v]] .. target[first[v+1]-1]   (node indexes)
 *  idom[v]     the immediate dominator (the root's is -1; -1 too for nodes not reachable)
 *  retained[v] size[v] + the retained sizes of the nodes v immediately dominates
 * </pre>
 */
public final class Dominators {
  private final int[] idom;
  private final int[] order;
  private final int reachable;
  private final long[] retained;

  private Dominators(int[] idom, int[] order, int reachable, long[] retained) {
    this.idom = idom;
    this.order = order;
    this.reachable = reachable;
    this.retained = retained;
  }

  /**
   * Computes the dominators of every node reachable from {@code root}.
   *
   * @param first successor offsets, {@code n + 1} entries
   * @param target successor node indexes
   * @param size each node's own size
   * @param root the start node
   */
  public static Dominators of(long[] first, int[] target, long[] size, int root) {
    int n = size.length;
    // Depth-first preorder numbering: dfn[v] (-1 if unreached), vertex[i] the node numbered i.
    int[] dfn = new int[n];
    Arrays.fill(dfn, -1);
    int[] vertex = new int[n];
    int[] parent = new int[n];
    long[] cursor = new long[n];
    int[] stack = new int[n];
    int count = 0;
    int top = 0;
    dfn[root] = count;
    vertex[count++] = root;
    parent[root] = -1;
    cursor[root] = first[root];
    stack[top++] = root;
    while (top > 0) {
      int v = stack[top - 1];
      if (cursor[v] < first[v + 1]) {
        int w = target[(int) cursor[v]++];
        if (dfn[w] < 0) {
          dfn[w] = count;
          vertex[count++] = w;
          parent[w] = v;
          cursor[w] = first[w];
          stack[top++] = w;
        }
      } else {
        top--;
      }
    }
    // Predecessors of reached nodes, as offsets and indexes like the successors.
    int[] predCount = new int[n + 1];
    for (int v = 0; v < n; v++) {
      if (dfn[v] < 0) {
        continue;
      }
      for (long k = first[v]; k < first[v + 1]; k++) {
        predCount[target[(int) k] + 1]++;
      }
    }
    for (int v = 0; v < n; v++) {
      predCount[v + 1] += predCount[v];
    }
    int[] pred = new int[predCount[n]];
    int[] fill = Arrays.copyOf(predCount, n);
    for (int v = 0; v < n; v++) {
      if (dfn[v] < 0) {
        continue;
      }
      for (long k = first[v]; k < first[v + 1]; k++) {
        pred[fill[target[(int) k]]++] = v;
      }
    }
    // semi[v]: the semidominator's preorder number; label/ancestor: the forest of eval/link.
    int[] semi = dfn.clone();
    int[] label = new int[n];
    int[] ancestor = new int[n];
    for (int v = 0; v < n; v++) {
      label[v] = v;
      ancestor[v] = -1;
    }
    int[] idom = new int[n];
    Arrays.fill(idom, -1);
    int[] bucketHead = new int[n];
    Arrays.fill(bucketHead, -1);
    int[] bucketNext = new int[n];
    int[] path = new int[n];
    for (int i = count - 1; i > 0; i--) {
      int w = vertex[i];
      for (int k = predCount[w]; k < predCount[w + 1]; k++) {
        int v = pred[k];
        if (dfn[v] < 0) {
          continue;
        }
        int u = eval(v, ancestor, label, semi, path);
        if (semi[u] < semi[w]) {
          semi[w] = semi[u];
        }
      }
      int s = vertex[semi[w]];
      bucketNext[w] = bucketHead[s];
      bucketHead[s] = w;
      int p = parent[w];
      ancestor[w] = p;
      for (int v = bucketHead[p]; v >= 0; v = bucketNext[v]) {
        int u = eval(v, ancestor, label, semi, path);
        idom[v] = semi[u] < semi[v] ? u : p;
      }
      bucketHead[p] = -1;
    }
    for (int i = 1; i < count; i++) {
      int w = vertex[i];
      if (idom[w] != vertex[semi[w]]) {
        idom[w] = idom[idom[w]];
      }
    }
    idom[root] = -1;
    // A node's dominator comes before it in preorder: sum the sizes up from the last.
    long[] retained = new long[n];
    for (int i = count - 1; i >= 0; i--) {
      int w = vertex[i];
      retained[w] += size[w];
      if (i > 0) {
        retained[idom[w]] += retained[w];
      }
    }
    return new Dominators(idom, Arrays.copyOf(vertex, count), count, retained);
  }

  /** The node on v's compressed path with the least semidominator. */
  private static int eval(int v, int[] ancestor, int[] label, int[] semi, int[] path) {
    if (ancestor[v] < 0) {
      return v;
    }
    // Collect the path up to the node whose ancestor is a root of the forest, then compress it
    // from the top down (what the recursive version does on its way back).
    int length = 0;
    int x = v;
    while (ancestor[ancestor[x]] >= 0) {
      path[length++] = x;
      x = ancestor[x];
    }
    for (int k = length - 1; k >= 0; k--) {
      int y = path[k];
      int a = ancestor[y];
      if (semi[label[a]] < semi[label[y]]) {
        label[y] = label[a];
      }
      ancestor[y] = ancestor[a];
    }
    return label[v];
  }

  /** The immediate dominator of {@code v}, or -1 for the root and unreachable nodes. */
  public int idom(int v) {
    return idom[v];
  }

  /** What {@code v} retains: its size and everything only reachable through it. */
  public long retained(int v) {
    return retained[v];
  }

  /** How many nodes the root reaches (itself included). */
  public int reachableCount() {
    return reachable;
  }

  /** The reachable nodes in depth-first preorder: every node after its dominator. */
  public int[] preorder() {
    return order.clone();
  }
}
