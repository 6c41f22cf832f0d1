package dev.clrscope.heapwalk;

import java.util.Arrays;

/**
 * Shortest paths to one object of a {@link HeapSnapshot}, breadth first over its references from
 * each start object a caller gives in turn (a root's object), so each path is as short as that
 * start allows. What one search explored without reaching the target is dead for every later one;
 * what led to the target is remembered, so a later search that meets it finishes there. A
 * snapshot's references include what its dependent handles keep alive, as the GC counts them. 17
 * bytes per object of the snapshot, and no read of the target: {@code gcroot} on a snapshot read
 * once costs these searches only.
 */
public final class PathSearch {
  private final HeapSnapshot graph;
  private final int target;
  private final boolean[] dead;
  // On a found path: each object's next object toward the target; -1 elsewhere.
  private final int[] toTarget;
  private final int[] parent;
  private final int[] stamp;
  private final int[] queue;
  private int epoch;

  /**
   * @param target the index of the object paths lead to; -1 (an address that is no object of the
   *     snapshot) finds no path
   */
  public PathSearch(HeapSnapshot graph, int target) {
    this.graph = graph;
    this.target = target;
    int n = graph.objectCount();
    dead = new boolean[n];
    toTarget = new int[n];
    Arrays.fill(toTarget, -1);
    parent = new int[n];
    stamp = new int[n];
    queue = new int[n];
    if (target >= 0) {
      toTarget[target] = target;
    }
  }

  /** The object indexes from {@code start} to the target, both included, or null when none. */
  public int[] pathFrom(int start) {
    if (target < 0 || start < 0 || dead[start]) {
      return null;
    }
    if (toTarget[start] >= 0) {
      return follow(start);
    }
    epoch++;
    int head = 0;
    int tail = 0;
    queue[tail++] = start;
    stamp[start] = epoch;
    int reached = -1;
    while (head < tail && reached < 0) {
      int node = queue[head++];
      for (int k = graph.referencesStart(node), end = graph.referencesStart(node + 1);
          k < end && reached < 0;
          k++) {
        int child = graph.referenceAt(k);
        if (dead[child] || stamp[child] == epoch) {
          continue;
        }
        stamp[child] = epoch;
        parent[child] = node;
        if (toTarget[child] >= 0) {
          reached = child;
        } else {
          queue[tail++] = child;
        }
      }
    }
    if (reached < 0) {
      // Nothing this search saw leads to the target: no later search needs to look there again.
      for (int i = 0; i < tail; i++) {
        dead[queue[i]] = true;
      }
      return null;
    }
    for (int at = reached; at != start; ) {
      int p = parent[at];
      toTarget[p] = at;
      at = p;
    }
    return follow(start);
  }

  private int[] follow(int from) {
    int length = 1;
    for (int at = from; at != target && length <= graph.objectCount(); at = toTarget[at]) {
      length++;
    }
    int[] path = new int[length];
    int at = from;
    for (int i = 0; i < length; i++) {
      path[i] = at;
      at = toTarget[at];
    }
    return path;
  }
}
