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
    long[] first = new long[succ.length + 1];
    List<Integer> targets = new ArrayList<>();
    for (int v = 0; v < succ.length; v++) {
      first[v] = targets.size();
      for (int w : succ[v]) {
        targets.add(w);
      }
    }
    first[succ.length] = targets.size();
    return Dominators.of(first, targets.stream().mapToInt(Integer::intValue).toArray(), size, root);
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
