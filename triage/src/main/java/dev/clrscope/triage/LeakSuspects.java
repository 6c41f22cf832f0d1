package dev.clrscope.triage;

import dev.clrscope.heapwalk.HeapSnapshot;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Leak suspects as Eclipse MAT's report finds them: among the objects only roots keep alive (the
 * top of the dominator tree), each one that retains the share of the heap or more, and each type
 * whose such objects together do; for an object, its accumulation point (down the dominator tree
 * along the biggest child while that child keeps most of its parent: where the many small objects
 * hang) and the shortest path to it from a root, naming the static field.
 */
final class LeakSuspects {
  private LeakSuspects() {}

  /** Go down to a child while it retains this share of its parent or more. */
  static final double BIG_CHILD = 0.7;

  /** Objects and types reported at most. */
  static final int MAX_SUSPECTS = 5;

  static void run(TriageTarget target, TriageSettings s, Results out) {
    HeapSnapshot h = target.heap();
    long total = h.reachableSize();
    long threshold = Math.max((long) Math.ceil(total * s.leakShare()), s.minSuspect());
    List<Integer> suspects = new ArrayList<>();
    Map<String, List<Integer>> byType = new LinkedHashMap<>();
    int biggest = -1;
    for (int c : h.dominatedBy(h.objectCount())) {
      long r = h.retainedSize(c);
      if (biggest < 0 || r > h.retainedSize(biggest)) {
        biggest = c;
      }
      if (r >= threshold) {
        suspects.add(c);
      } else {
        byType.computeIfAbsent(h.typeNameOf(c), k -> new ArrayList<>()).add(c);
      }
    }
    suspects.sort(Comparator.comparingLong(h::retainedSize).reversed());
    for (int c : suspects.subList(0, Math.min(MAX_SUSPECTS, suspects.size()))) {
      out.add(objectSuspect(target, h, c, total));
    }
    List<Map.Entry<String, List<Integer>>> types = new ArrayList<>();
    for (Map.Entry<String, List<Integer>> t : byType.entrySet()) {
      if (t.getValue().size() >= 2 && retained(h, t.getValue()) >= threshold) {
        types.add(t);
      }
    }
    types.sort(
        Comparator.comparingLong((Map.Entry<String, List<Integer>> t) -> retained(h, t.getValue()))
            .reversed());
    for (Map.Entry<String, List<Integer>> t : types.subList(0, Math.min(3, types.size()))) {
      out.add(typeSuspect(target, h, t.getKey(), t.getValue(), total));
    }
    out.checked(
        "leak suspects",
        Words.bytes(total)
            + " reachable"
            + (biggest < 0
                ? ""
                : "; the biggest retainer, "
                    + h.typeNameOf(biggest)
                    + ", retains "
                    + Words.percent(h.retainedSize(biggest) / (double) Math.max(1, total)))
            + "; suspects retain "
            + Words.percent(s.leakShare())
            + " and "
            + Words.bytes(s.minSuspect())
            + " or more");
  }

  private static long retained(HeapSnapshot h, List<Integer> objects) {
    long sum = 0;
    for (int o : objects) {
      sum += h.retainedSize(o);
    }
    return sum;
  }

  private static Finding objectSuspect(TriageTarget target, HeapSnapshot h, int c, long total) {
    long retained = h.retainedSize(c);
    Evidence.Builder e = Evidence.builder();
    e.object(entry(h, c, "suspect"));
    List<HeapSnapshot.PathStep> path = Heaps.pathTo(h, c);
    String root = path.isEmpty() ? null : path.get(0).root();
    Accumulation acc = accumulation(h, c);
    int point = acc.point();
    List<Map.Entry<String, long[]>> held = acc.held();
    String heldText = null;
    if (!held.isEmpty()) {
      Map.Entry<String, long[]> most = held.get(0);
      heldText = Words.count(most.getValue()[0]) + " " + most.getKey();
      e.object(
          entry(
              h,
              point,
              "accumulation point: holds "
                  + heldText
                  + " retaining "
                  + Words.bytes(most.getValue()[1])));
      for (Map.Entry<String, long[]> k : held) {
        e.fact("accumulated: " + k.getKey(), k.getValue()[0]);
      }
    }
    for (int i = 1; i < path.size() - 1; i++) {
      HeapSnapshot.PathStep p = path.get(i);
      e.object(new Evidence.ObjectEntry(p.address(), p.type(), p.size(), null, "on the path"));
    }
    if (root != null) {
      e.fact("root", root);
    }
    e.fact("retained bytes", retained);
    e.fact("heap share", Words.percent(retained / (double) Math.max(1, total)));
    String title =
        h.typeNameOf(c)
            + " "
            + Next.hex(h.addressOf(c))
            + " retains "
            + Words.bytes(retained)
            + " ("
            + Words.percent(retained / (double) Math.max(1, total))
            + " of the heap)"
            + (root == null ? "" : ", held by " + root)
            + (heldText == null
                ? "."
                : "; most of it is "
                    + heldText
                    + (point == c ? "" : " in its " + h.typeNameOf(point))
                    + ".");
    return new Finding(
        Finding.Kind.LEAK_SUSPECT,
        Severity.WARNING,
        title,
        e.build(),
        List.of(
            Next.analyze(target, "retained " + Next.hex(h.addressOf(c))),
            Next.analyze(target, "paths " + Next.hex(h.addressOf(point)))));
  }

  private static Finding typeSuspect(
      TriageTarget target, HeapSnapshot h, String type, List<Integer> objects, long total) {
    long retained = retained(h, objects);
    objects.sort(Comparator.comparingLong(h::retainedSize).reversed());
    Evidence.Builder e = Evidence.builder();
    for (int o : objects.subList(0, Math.min(5, objects.size()))) {
      e.object(entry(h, o, "one of them"));
    }
    e.fact("objects", (long) objects.size());
    e.fact("retained bytes", retained);
    String title =
        Words.count(objects.size())
            + " "
            + type
            + " objects, each kept alive by a root of its own, retain "
            + Words.bytes(retained)
            + " ("
            + Words.percent(retained / (double) Math.max(1, total))
            + " of the heap).";
    return new Finding(
        Finding.Kind.LEAK_SUSPECT,
        Severity.WARNING,
        title,
        e.build(),
        List.of(
            Next.analyze(target, "retained -type " + Next.quoted(type)),
            Next.analyze(target, "gcroot " + Next.hex(h.addressOf(objects.get(0))))));
  }

  /**
   * Where an object's retained set accumulates, and what hangs there per type (count and retained
   * bytes, most first, at most three types).
   */
  record Accumulation(int point, List<Map.Entry<String, long[]>> held) {}

  /**
   * Down from {@code c} along the biggest child while it keeps most of its parent: the accumulation
   * point, where the many small objects hang. Each node's children are read once, for the biggest
   * and for what they are.
   */
  static Accumulation accumulation(HeapSnapshot h, int c) {
    int node = c;
    for (int depth = 0; ; depth++) {
      int best = -1;
      long bestRetained = 0;
      Map<String, long[]> byType = new LinkedHashMap<>();
      // Children of one type come in runs (a collection's elements): the last type's tally is
      // kept at hand.
      int lastType = -1;
      long[] last = null;
      for (int k : h.dominatedBy(node)) {
        long r = h.retainedSize(k);
        if (r > bestRetained) {
          best = k;
          bestRetained = r;
        }
        int type = h.typeOf(k);
        if (type != lastType) {
          lastType = type;
          last = byType.computeIfAbsent(h.typeNameOf(k), t -> new long[2]);
        }
        last[0]++;
        last[1] += r;
      }
      if (best < 0 || bestRetained < BIG_CHILD * h.retainedSize(node) || depth >= 10_000) {
        List<Map.Entry<String, long[]>> rows = new ArrayList<>(byType.entrySet());
        rows.sort(
            Comparator.comparingLong((Map.Entry<String, long[]> r) -> r.getValue()[1]).reversed());
        return new Accumulation(node, rows.subList(0, Math.min(3, rows.size())));
      }
      node = best;
    }
  }

  private static Evidence.ObjectEntry entry(HeapSnapshot h, int i, String role) {
    return new Evidence.ObjectEntry(
        h.addressOf(i), h.typeNameOf(i), h.sizeOf(i), h.retainedSize(i), role);
  }
}
