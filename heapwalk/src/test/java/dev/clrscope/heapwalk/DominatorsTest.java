package dev.clrscope.heapwalk;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Dominators against small graphs worked by hand, a long chain, and a brute-force check. */
class DominatorsTest {
  /** Successor lists to offsets and targets. */
  private static Dominators of(int[][] succ, long[] size, int root) {
    int[] first = new int[succ.length + 1];
    List<Integer> targets = new ArrayList<>();
    for (int v = 0; v < succ.length; v++) {
      first[v] = targets.size();
      for (int w : succ[v]) {
        targets.add(w);
      }
    }
    first[succ.length] = targets.size();
    return Dominators.of(
        first, targets.stream().mapToInt(Integer::intValue).toArray(), v -> size[v], root);
  }

  @Test
  void theClassicExample() {
    // Lengauer and Tarjan's paper figure, nodes R=0 A=1 B=2 C=3 D=4 E=5 F=6 G=7 H=8 I=9 J=10
    // K=11 L=12.
    int[][] succ = {
      {1, 2, 3}, {4}, {1, 4, 5}, {6, 7}, {12}, {8}, {9}, {9, 10}, {5, 11}, {11}, {9}, {0, 9}, {8}
    };
    long[] size = new long[13];
    java.util.Arrays.fill(size, 1);
    Dominators d = of(succ, size, 0);
    int[] expected = {-1, 0, 0, 0, 0, 0, 3, 3, 0, 0, 7, 0, 4};
    for (int v = 0; v < 13; v++) {
      assertThat(d.idom(v)).as("idom(%d)", v).isEqualTo(expected[v]);
    }
    assertThat(d.retained(0)).isEqualTo(13);
    assertThat(d.retained(3)).isEqualTo(4); // C, F, G, J
    assertThat(d.retained(4)).isEqualTo(2); // D, L
  }

  @Test
  void anExtraRootNodeKeptApartDominatesLikeAnOrdinaryOne() {
    // Objects 0..3 and an extra node 4 (the roots) with successors 0 and 2: 0 -> 1, 2 -> 1, 1 -> 3.
    int[] first = {0, 1, 2, 3, 3};
    int[] target = {1, 3, 1};
    long[] size = {1, 10, 100, 1000};
    Dominators d = Dominators.of(first, target, new int[] {0, 2}, v -> v == 4 ? 0 : size[v], 4);
    assertThat(d.reachableCount()).isEqualTo(5);
    assertThat(d.idom(0)).isEqualTo(4);
    assertThat(d.idom(2)).isEqualTo(4);
    assertThat(d.idom(1)).isEqualTo(4); // reached through 0 and through 2
    assertThat(d.idom(3)).isEqualTo(1);
    assertThat(d.retained(1)).isEqualTo(1010);
    assertThat(d.retained(4)).isEqualTo(1111);
  }

  @Test
  void aLongChainNeitherRecursesNorLosesSizes() {
    int n = 1_000_000;
    int[][] succ = new int[n][];
    long[] size = new long[n];
    for (int v = 0; v < n; v++) {
      succ[v] = v + 1 < n ? new int[] {v + 1} : new int[0];
      size[v] = 3;
    }
    Dominators d = of(succ, size, 0);
    assertThat(d.retained(0)).isEqualTo(3L * n);
    assertThat(d.retained(n / 2)).isEqualTo(3L * (n - n / 2));
    assertThat(d.idom(n - 1)).isEqualTo(n - 2);
  }

  @Test
  void unreachableNodesHaveNoDominatorAndCountNowhere() {
    int[][] succ = {{1}, {}, {1}};
    Dominators d = of(succ, new long[] {1, 10, 100}, 0);
    assertThat(d.idom(2)).isEqualTo(-1);
    assertThat(d.retained(0)).isEqualTo(11);
    assertThat(d.reachableCount()).isEqualTo(2);
  }

  @Test
  void randomGraphsAgreeWithTheDefinition() {
    Random random = new Random(42);
    for (int round = 0; round < 200; round++) {
      int n = 2 + random.nextInt(12);
      int[][] succ = new int[n][];
      for (int v = 0; v < n; v++) {
        int k = random.nextInt(4);
        succ[v] = new int[k];
        for (int j = 0; j < k; j++) {
          succ[v][j] = random.nextInt(n);
        }
      }
      long[] size = new long[n];
      java.util.Arrays.fill(size, 1);
      Dominators d = of(succ, size, 0);
      for (int v = 1; v < n; v++) {
        if (!reaches(succ, 0, v, -1)) {
          assertThat(d.idom(v)).isEqualTo(-1);
          continue;
        }
        // idom(v) dominates v (removing it cuts v off), and every other dominator of v
        // dominates idom(v).
        int i = d.idom(v);
        assertThat(reaches(succ, 0, v, i))
            .as("round %d: %d does not dominate %d", round, i, v)
            .isFalse();
        for (int u = 0; u < n; u++) {
          if (u != v && u != i && !reaches(succ, 0, v, u)) {
            assertThat(u == 0 || !reaches(succ, 0, i, u))
                .as("round %d: %d vs idom %d of %d", round, u, i, v)
                .isTrue();
          }
        }
      }
    }
  }

  @Test
  void largeRandomGraphsAgreeWithTheIterativeAlgorithm() {
    Random random = new Random(7);
    for (int round = 0; round < 20; round++) {
      int n = 500 + random.nextInt(3000);
      int[][] succ = new int[n][];
      for (int v = 0; v < n; v++) {
        // Mostly forward edges (long paths for the compression), some back and cross edges.
        int k = random.nextInt(4);
        succ[v] = new int[k];
        for (int j = 0; j < k; j++) {
          succ[v][j] =
              random.nextInt(10) < 8
                  ? Math.min(n - 1, v + 1 + random.nextInt(20))
                  : random.nextInt(n);
        }
      }
      long[] size = new long[n];
      java.util.Arrays.fill(size, 1);
      Dominators d = of(succ, size, 0);
      int[] expected = cooperHarveyKennedy(succ, 0);
      for (int v = 0; v < n; v++) {
        assertThat(d.idom(v)).as("round %d, node %d of %d", round, v, n).isEqualTo(expected[v]);
      }
    }
  }

  @Test
  void predecessorsGatheredOnASecondThreadGiveTheSameTree() {
    Random random = new Random(11);
    for (int round = 0; round < 6; round++) {
      // Objects, an extra node (the roots) with some of them as successors, and garbage: objects
      // no root reaches, whose references must count nowhere.
      int objects = 2_000 + random.nextInt(80_000);
      int[] first = new int[objects + 1];
      int[] target = new int[objects * 3];
      int edges = 0;
      for (int v = 0; v < objects; v++) {
        first[v] = edges;
        int k = random.nextInt(4);
        for (int j = 0; j < k; j++) {
          target[edges++] =
              random.nextInt(10) < 8
                  ? Math.min(objects - 1, v + 1 + random.nextInt(20))
                  : random.nextInt(objects);
        }
      }
      first[objects] = edges;
      int[] roots = random.ints(1 + random.nextInt(50), 0, objects / 2).toArray();
      long[] size = random.longs(objects, 1, 1_000).toArray();
      java.util.function.IntToLongFunction sizeOf = v -> v == objects ? 0 : size[v];
      Dominators one = Dominators.of(first, target, roots, sizeOf, objects, false);
      Dominators two = Dominators.of(first, target, roots, sizeOf, objects, true);
      assertThat(two.reachableCount()).isEqualTo(one.reachableCount());
      for (int v = 0; v <= objects; v++) {
        assertThat(two.idom(v)).as("round %d, node %d", round, v).isEqualTo(one.idom(v));
        assertThat(two.retained(v)).as("round %d, node %d", round, v).isEqualTo(one.retained(v));
      }
    }
  }

  /** Cooper, Harvey and Kennedy's iterative dominators: -1 for the root and unreached nodes. */
  private static int[] cooperHarveyKennedy(int[][] succ, int root) {
    int n = succ.length;
    int[] post = new int[n];
    java.util.Arrays.fill(post, -1);
    List<Integer> order = new ArrayList<>();
    int[] next = new int[n];
    java.util.ArrayDeque<Integer> stack = new java.util.ArrayDeque<>();
    boolean[] seen = new boolean[n];
    stack.push(root);
    seen[root] = true;
    while (!stack.isEmpty()) {
      int v = stack.peek();
      if (next[v] < succ[v].length) {
        int w = succ[v][next[v]++];
        if (!seen[w]) {
          seen[w] = true;
          stack.push(w);
        }
      } else {
        stack.pop();
        post[v] = order.size();
        order.add(v);
      }
    }
    List<List<Integer>> preds = new ArrayList<>();
    for (int v = 0; v < n; v++) {
      preds.add(new ArrayList<>());
    }
    for (int v = 0; v < n; v++) {
      if (seen[v]) {
        for (int w : succ[v]) {
          preds.get(w).add(v);
        }
      }
    }
    int[] idom = new int[n];
    java.util.Arrays.fill(idom, -1);
    idom[root] = root;
    boolean changed = true;
    while (changed) {
      changed = false;
      for (int k = order.size() - 1; k >= 0; k--) {
        int v = order.get(k);
        if (v == root) {
          continue;
        }
        int candidate = -1;
        for (int p : preds.get(v)) {
          if (idom[p] < 0) {
            continue;
          }
          if (candidate < 0) {
            candidate = p;
          } else {
            int a = p;
            int b = candidate;
            while (a != b) {
              while (post[a] < post[b]) {
                a = idom[a];
              }
              while (post[b] < post[a]) {
                b = idom[b];
              }
            }
            candidate = a;
          }
        }
        if (idom[v] != candidate) {
          idom[v] = candidate;
          changed = true;
        }
      }
    }
    idom[root] = -1;
    return idom;
  }

  /** Whether {@code to} is reachable from {@code from} without passing {@code without}. */
  private static boolean reaches(int[][] succ, int from, int to, int without) {
    if (from == without) {
      return false;
    }
    boolean[] seen = new boolean[succ.length];
    java.util.ArrayDeque<Integer> queue = new java.util.ArrayDeque<>();
    queue.add(from);
    seen[from] = true;
    while (!queue.isEmpty()) {
      int v = queue.poll();
      if (v == to) {
        return true;
      }
      for (int w : succ[v]) {
        if (w != without && !seen[w]) {
          seen[w] = true;
          queue.add(w);
        }
      }
    }
    return false;
  }
}
