package dev.clrscope.heapwalk;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * A heap walked in two halves, each into an exact builder of its own, the lower one then taking the
 * upper one ({@link HeapSnapshotBuilder#append}): the snapshot is the one a single walk makes, to
 * every object, reference, type number, root and retained size.
 */
class TwoWalksTest {
  /** A heap made up from a seed: objects in address order with their references and roots. */
  private record Heap(
      long[] address,
      long[] size,
      long[] type,
      long[][] refs,
      boolean[] frozen,
      long[] typeIds,
      long[] roots,
      long[][] dependents) {}

  private static Heap heap(long seed, int n) {
    Random r = new Random(seed);
    long[] address = new long[n];
    long[] size = new long[n];
    long[] type = new long[n];
    boolean[] frozen = new boolean[n];
    // Ids that share the bits the builder's cache of recent types is keyed by: the cache must not
    // confuse them.
    long[] typeIds = new long[40];
    for (int t = 0; t < typeIds.length; t++) {
      typeIds[t] = 0x7f00_0000_0000L + (long) t * 512 * 64 + (t % 3) * 8;
    }
    long at = 0x7f10_0000_0000L;
    for (int i = 0; i < n; i++) {
      if (r.nextInt(5000) == 0) {
        at += (1L << 22) + 8L * r.nextInt(1 << 12); // another segment, far above
      }
      address[i] = at;
      long gap = 8L * (3 + r.nextInt(12));
      size[i] = r.nextInt(3000) == 0 ? (1L << 32) + r.nextInt(100) : gap - r.nextInt(8);
      at += gap;
      // Runs of one type, and a few types interleaved.
      type[i] =
          i > 0 && r.nextInt(3) == 0
              ? type[i - 1]
              : typeIds[r.nextInt(1 + r.nextInt(typeIds.length))];
      frozen[i] = r.nextInt(500) == 0;
    }
    long[][] refs = new long[n][];
    for (int i = 0; i < n; i++) {
      int k = r.nextInt(10) < 3 ? 0 : 1 + r.nextInt(r.nextInt(50) == 0 ? 40 : 3);
      refs[i] = new long[k];
      for (int j = 0; j < k; j++) {
        int pick = r.nextInt(20);
        refs[i][j] =
            pick == 0
                ? address[r.nextInt(n)] + 8 // inside an object: none starts there
                : pick == 1
                    ? 0x10_0000L + 8L * r.nextInt(1000) // outside the heap
                    : pick == 2
                        ? address[i] // itself
                        : address[r.nextInt(n)];
      }
    }
    long[] roots = new long[Math.max(1, n / 200)];
    for (int k = 0; k < roots.length; k++) {
      roots[k] = r.nextInt(10) == 0 ? 0x10_0008L : address[r.nextInt(n)];
    }
    long[][] dependents = new long[3][];
    for (int k = 0; k < dependents.length; k++) {
      dependents[k] = new long[] {address[r.nextInt(n)], address[r.nextInt(n)]};
    }
    return new Heap(address, size, type, refs, frozen, typeIds, roots, dependents);
  }

  /** Objects {@code from} to {@code to} of {@code h} given to {@code b} as a walk gives them. */
  private static void walk(HeapSnapshotBuilder b, Heap h, int from, int to, Random how) {
    for (int i = from; i < to; i++) {
      long[] refs = h.refs()[i];
      if (how.nextBoolean()) {
        b.object(h.address()[i], h.size()[i], h.type()[i], refs, refs.length);
      } else {
        for (long ref : refs) {
          b.reference(ref);
        }
        b.object(h.address()[i], h.size()[i], h.type()[i], refs.length);
      }
      if (h.frozen()[i]) {
        b.root(h.address()[i], HeapSnapshotBuilder.FROZEN_ROOT, null);
      }
    }
  }

  /** What comes after the walk: type names (all but the last type's), roots, dependents. */
  private static HeapSnapshot afterTheWalk(HeapSnapshotBuilder b, Heap h) {
    for (int t = 0; t < h.typeIds().length - 1; t++) {
      b.typeName(h.typeIds()[t], "Type" + t);
    }
    for (int k = 0; k < h.roots().length; k++) {
      b.root(h.roots()[k], HeapSnapshotBuilder.STATIC_ROOT, k % 2 == 0 ? "App.Field" + k : null);
    }
    for (long[] d : h.dependents()) {
      b.dependent(d[0], d[1]);
    }
    b.problem("a problem of the walk");
    return b.build().orElseThrow();
  }

  private static HeapSnapshot inOne(Heap h, long seed) {
    HeapSnapshotBuilder b = HeapSnapshotBuilder.exact(8);
    walk(b, h, 0, h.address().length, new Random(seed));
    b.walkEnded();
    return afterTheWalk(b, h);
  }

  private static HeapSnapshot inTwo(Heap h, int split, long seed) {
    Random how = new Random(seed);
    HeapSnapshotBuilder lower = HeapSnapshotBuilder.exact(8);
    HeapSnapshotBuilder upper = HeapSnapshotBuilder.exact(8);
    walk(lower, h, 0, split, how);
    walk(upper, h, split, h.address().length, how);
    upper.walkEnded();
    lower.walkEnded();
    lower.append(upper);
    return afterTheWalk(lower, h);
  }

  private static void assertSame(HeapSnapshot two, HeapSnapshot one) {
    assertThat(two.objectCount()).isEqualTo(one.objectCount());
    assertThat(two.referenceCount()).isEqualTo(one.referenceCount());
    assertThat(two.rootCount()).isEqualTo(one.rootCount());
    assertThat(two.problems()).isEqualTo(one.problems());
    assertThat(two.referencesOutsideTheHeap()).isEqualTo(one.referencesOutsideTheHeap());
    assertThat(two.unreachableCount()).isEqualTo(one.unreachableCount());
    assertThat(two.totalSize()).isEqualTo(one.totalSize());
    assertThat(two.reachableSize()).isEqualTo(one.reachableSize());
    assertThat(two.typeStatistics()).isEqualTo(one.typeStatistics());
    assertThat(two.unreachableTypeStatistics()).isEqualTo(one.unreachableTypeStatistics());
    for (int r = 0; r < one.rootCount(); r++) {
      assertThat(two.rootKindOf(r)).isEqualTo(one.rootKindOf(r));
    }
    // Plain comparisons, a million objects at a time; the first object that differs is said.
    for (int i = 0; i < one.objectCount(); i++) {
      if (two.addressOf(i) != one.addressOf(i)
          || two.sizeOf(i) != one.sizeOf(i)
          || two.typeOf(i) != one.typeOf(i)
          || !two.typeNameOf(i).equals(one.typeNameOf(i))
          || !java.util.Arrays.equals(two.referencesOf(i), one.referencesOf(i))
          || two.retainedSize(i) != one.retainedSize(i)
          || two.isReachable(i) != one.isReachable(i)) {
        assertThat(describe(two, i)).as("object %d", i).isEqualTo(describe(one, i));
      }
    }
    assertThat(two.pathsTo(t -> t.equals("Type3"), 20))
        .isEqualTo(one.pathsTo(t -> t.equals("Type3"), 20));
  }

  private static String describe(HeapSnapshot s, int i) {
    return String.format(
        "0x%x %d %d %s %s retained %d reachable %b",
        s.addressOf(i),
        s.sizeOf(i),
        s.typeOf(i),
        s.typeNameOf(i),
        java.util.Arrays.toString(s.referencesOf(i)),
        s.retainedSize(i),
        s.isReachable(i));
  }

  @Test
  void twoHalvesMakeTheGraphOneWalkMakesWhereverTheCut() {
    for (long seed = 1; seed <= 12; seed++) {
      int n = 2_000 + 1_000 * (int) seed;
      Heap h = heap(seed, n);
      HeapSnapshot one = inOne(h, seed);
      assertThat(one.referencesOutsideTheHeap()).isPositive();
      for (int split : new int[] {0, 1, n / 3, n / 2, n - 1, n}) {
        assertSame(inTwo(h, split, seed), one);
      }
    }
  }

  /**
   * A heap of more than a million objects: batches that grow to their largest, chunks of the
   * columns crossed, the objects' columns copied out beside the references' resolution.
   */
  @Test
  void aLargeHeapInTwoHalvesIsTheGraphOneWalkMakes() {
    int n = 1_100_000;
    Heap h = heap(99, n);
    HeapSnapshot one = inOne(h, 99);
    HeapSnapshot two = inTwo(h, h.address().length / 2 + 12_345, 99);
    assertThat(two.objectCount()).isEqualTo(n);
    assertSame(two, one);
  }

  @Test
  void onlyAnEndedExactWalkAppendsAnotherOnce() {
    HeapSnapshotBuilder lower = HeapSnapshotBuilder.exact(8);
    HeapSnapshotBuilder upper = HeapSnapshotBuilder.exact(8);
    upper.walkEnded();
    assertThatThrownBy(() -> lower.append(upper)).isInstanceOf(IllegalStateException.class);
    lower.walkEnded();
    assertThatThrownBy(() -> lower.append(lower)).isInstanceOf(IllegalStateException.class);
    assertThatThrownBy(() -> lower.append(new HeapSnapshotBuilder()))
        .isInstanceOf(IllegalStateException.class);
    lower.append(upper);
    HeapSnapshotBuilder third = HeapSnapshotBuilder.exact(8);
    third.walkEnded();
    assertThatThrownBy(() -> lower.append(third)).isInstanceOf(IllegalStateException.class);
  }

  /**
   * The search that keeps one int an object finds the paths the one that kept four arrays found:
   * the same objects, in the same order, from every start, whatever came before.
   */
  @Test
  void pathsAreThoseOfTheSearchBeforeIt() {
    for (long seed = 1; seed <= 40; seed++) {
      Random r = new Random(seed);
      int n = 50 + r.nextInt(3000);
      Heap h = heap(seed * 31, n);
      HeapSnapshot s = inOne(h, seed);
      for (int round = 0; round < 4; round++) {
        int target = round == 3 ? -1 : r.nextInt(n);
        PathSearch now = new PathSearch(s, target);
        SearchBefore before = new SearchBefore(s, target);
        List<Integer> starts = new ArrayList<>();
        for (int k = 0; k < 60; k++) {
          starts.add(r.nextInt(10) == 0 ? -1 : r.nextInt(n));
        }
        starts.add(target);
        starts.add(starts.get(0));
        for (int start : starts) {
          assertThat(now.pathFrom(start))
              .as("seed %d, from %d to %d", seed, start, target)
              .isEqualTo(before.pathFrom(start));
        }
      }
    }
  }

  /** The path search as it was before it kept one int an object (17 bytes an object). */
  private static final class SearchBefore {
    private final HeapSnapshot graph;
    private final int target;
    private final boolean[] dead;
    private final int[] toTarget;
    private final int[] parent;
    private final int[] stamp;
    private final int[] queue;
    private int epoch;

    SearchBefore(HeapSnapshot graph, int target) {
      this.graph = graph;
      this.target = target;
      int n = graph.objectCount();
      dead = new boolean[n];
      toTarget = new int[n];
      java.util.Arrays.fill(toTarget, -1);
      parent = new int[n];
      stamp = new int[n];
      queue = new int[n];
      if (target >= 0) {
        toTarget[target] = target;
      }
    }

    int[] pathFrom(int start) {
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
}
