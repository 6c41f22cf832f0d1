package dev.clrscope.bench;

import dev.clrscope.heapwalk.Dominators;
import java.util.Locale;

/**
 * The dominator computation alone, on a synthetic heap shaped like TargetApp's links: N objects,
 * each referencing the one before it and the one at half its index, all held by one array that a
 * single root holds, so 3N references. The array lists the links newest first, so the depth-first
 * search descends one chain of N links (the worst case for a recursive search, and for path
 * compression).
 *
 * <p>{@code DominatorsTiming [N [PASSES]]} (defaults 10,000,000 and 3). Run it with {@code -Xmx1g}:
 * the graph (about 160 MB) and the computation fit.
 */
public final class DominatorsTiming {
  private DominatorsTiming() {}

  public static void main(String[] args) {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 10_000_000;
    int passes = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    // Node 0 is the root, node 1 the array, nodes 2 .. n+1 the links.
    int nodes = n + 2;
    int[] first = new int[nodes + 1];
    int[] target = new int[n + 2 * n];
    int m = 0;
    first[0] = m;
    target[m++] = 1;
    first[1] = m;
    for (int i = n - 1; i >= 0; i--) {
      target[m++] = 2 + i;
    }
    for (int i = 0; i < n; i++) {
      first[2 + i] = m;
      if (i > 0) {
        target[m++] = 2 + i - 1;
      }
      if (i > 1) {
        target[m++] = 2 + i / 2;
      }
    }
    first[nodes] = m;
    System.out.printf(
        Locale.ROOT,
        "%,d nodes, %,d references, max heap %,d MB%n",
        nodes,
        m,
        Runtime.getRuntime().maxMemory() >> 20);
    for (int p = 0; p < passes; p++) {
      long start = System.nanoTime();
      Dominators d = Dominators.of(first, target, v -> v < 2 ? 0 : 24, 0);
      double seconds = (System.nanoTime() - start) / 1e9;
      System.out.printf(
          Locale.ROOT,
          "pass %d: %.2f s, %,d reachable, the array retains %,d bytes%n",
          p + 1,
          seconds,
          d.reachableCount(),
          d.retained(1));
    }
  }
}
