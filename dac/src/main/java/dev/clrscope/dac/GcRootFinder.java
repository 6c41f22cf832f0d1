package dev.clrscope.dac;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Paths from roots to one object over the {@link ObjectGraph}, breadth first from each root, so
 * each path is as short as that root allows. What a root's search explored without reaching the
 * target is dead for every later root; what led to the target is remembered, so a later search that
 * meets it finishes there. Dependent handles count as references from their primary object to their
 * secondary one, as the GC counts them.
 */
final class GcRootFinder {
  private final ObjectGraph graph;
  private final int target;
  private final boolean[] dead;
  // On a found path: each object's next object toward the target; -1 elsewhere.
  private final int[] toTarget;
  private final int[] parent;
  private final int[] stamp;
  private final int[] queue;
  private final LongMap<int[]> dependents = new LongMap<>();
  private int epoch;

  GcRootFinder(ObjectGraph graph, int target, List<Root> dependentHandles) {
    this.graph = graph;
    this.target = target;
    int n = graph.size();
    dead = new boolean[n];
    toTarget = new int[n];
    Arrays.fill(toTarget, -1);
    parent = new int[n];
    stamp = new int[n];
    queue = new int[n];
    if (target >= 0) {
      toTarget[target] = target;
    }
    for (Root h : dependentHandles) {
      int from = graph.indexOf(h.object());
      int to = graph.indexOf(h.secondary());
      if (from >= 0 && to >= 0) {
        int[] old = dependents.get(from + 1L);
        int[] now = old == null ? new int[1] : Arrays.copyOf(old, old.length + 1);
        now[now.length - 1] = to;
        dependents.put(from + 1L, now);
      }
    }
  }

  /** The objects from {@code start} to the target, or null when it does not reach it. */
  List<Long> pathFrom(int start) {
    if (target < 0 || dead[start]) {
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
      for (int r = graph.refStart[node]; r < graph.refStart[node + 1] && reached < 0; r++) {
        reached = visit(node, graph.refs[r], tail);
        if (reached == -2) {
          tail++;
          reached = -1;
        }
      }
      int[] extra = dependents.get(node + 1L);
      if (extra != null) {
        for (int i = 0; i < extra.length && reached < 0; i++) {
          reached = visit(node, extra[i], tail);
          if (reached == -2) {
            tail++;
            reached = -1;
          }
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

  // -2: queued the child; >= 0: the child leads to the target; -1: nothing to do.
  private int visit(int node, int child, int tail) {
    if (dead[child] || stamp[child] == epoch) {
      return -1;
    }
    stamp[child] = epoch;
    parent[child] = node;
    if (toTarget[child] >= 0) {
      return child;
    }
    queue[tail] = child;
    return -2;
  }

  private List<Long> follow(int from) {
    List<Long> path = new ArrayList<>();
    int at = from;
    path.add(graph.addresses[at]);
    while (at != target && path.size() <= graph.size()) {
      at = toTarget[at];
      path.add(graph.addresses[at]);
    }
    return path;
  }
}
