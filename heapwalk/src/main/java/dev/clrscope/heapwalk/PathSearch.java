package dev.clrscope.heapwalk;

/**
 * Shortest paths to one object of a {@link HeapSnapshot}, breadth first over its references from
 * each start object a caller gives in turn (a root's object), so each path is as short as that
 * start allows. What one search explored without reaching the target is dead for every later one;
 * what led to the target is remembered, so a later search that meets it finishes there. A
 * snapshot's references include what its dependent handles keep alive, as the GC counts them. 8
 * bytes per object of the snapshot, and no read of the target: {@code gcroot} on a snapshot read
 * once costs these searches only.
 */
public final class PathSearch {
  private final HeapSnapshot graph;
  private final int target;

  /**
   * One int per object says all a search needs of it: 0 not met by this search; {@code p + 1} met
   * by this search from object {@code p} (its start from itself); {@link #DEAD} met by an earlier
   * search that did not reach the target; {@code -2 - next} on a path found to the target, {@code
   * next} the object after it (the target: itself). With the queue, 8 bytes per object where
   * separate arrays took 17: the memory a search touches for the first time is a good part of its
   * cost.
   */
  private final int[] mark;

  private final int[] queue;

  private static final int DEAD = -1;

  /**
   * @param target the index of the object paths lead to; -1 (an address that is no object of the
   *     snapshot) finds no path
   */
  public PathSearch(HeapSnapshot graph, int target) {
    this.graph = graph;
    this.target = target;
    int n = graph.objectCount();
    mark = new int[n];
    queue = new int[n];
    if (target >= 0) {
      mark[target] = -2 - target;
    }
  }

  /** The object indexes from {@code start} to the target, both included, or null when none. */
  public int[] pathFrom(int start) {
    if (target < 0 || start < 0 || mark[start] == DEAD) {
      return null;
    }
    if (mark[start] <= -2) {
      return follow(start);
    }
    int head = 0;
    int tail = 0;
    queue[tail++] = start;
    mark[start] = start + 1;
    int reached = -1;
    int reachedFrom = -1;
    while (head < tail && reached < 0) {
      int node = queue[head++];
      for (int k = graph.referencesStart(node), end = graph.referencesStart(node + 1);
          k < end;
          k++) {
        int child = graph.referenceAt(k);
        int m = mark[child];
        if (m == DEAD || m > 0) {
          continue;
        }
        if (m <= -2) {
          reached = child;
          reachedFrom = node;
          break;
        }
        mark[child] = node + 1;
        queue[tail++] = child;
      }
    }
    if (reached < 0) {
      // Nothing this search saw leads to the target: no later search needs to look there again.
      for (int i = 0; i < tail; i++) {
        mark[queue[i]] = DEAD;
      }
      return null;
    }
    for (int at = reachedFrom, next = reached; ; ) {
      int parent = mark[at] - 1;
      mark[at] = -2 - next;
      if (at == start) {
        break;
      }
      next = at;
      at = parent;
    }
    // What this search met off the path is met by none yet, for the next search.
    for (int i = 0; i < tail; i++) {
      if (mark[queue[i]] > 0) {
        mark[queue[i]] = 0;
      }
    }
    return follow(start);
  }

  private int[] follow(int from) {
    int length = 1;
    for (int at = from; at != target && length <= graph.objectCount(); at = -2 - mark[at]) {
      length++;
    }
    int[] path = new int[length];
    int at = from;
    for (int i = 0; i < length; i++) {
      path[i] = at;
      at = -2 - mark[at];
    }
    return path;
  }
}
