package dev.clrscope.triage;

import dev.clrscope.dac.analysis.HeapContents;
import dev.clrscope.heapwalk.HeapSnapshot;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongPredicate;

/**
 * Memory held for nothing: one string value held many times, collections mostly empty, free space
 * between the large object heap's objects, and delegates whose invocation lists only grow (event
 * handlers added and never removed).
 */
final class HeapWaste {
  private HeapWaste() {}

  /** A collection type counts as mostly empty when a quarter of its slots or fewer are used. */
  static final double MOSTLY_EMPTY = 0.25;

  private static final String[] COLLECTIONS = {
    "System.Collections.Generic.List<",
    "System.Collections.Generic.Dictionary<",
    "System.Collections.Generic.HashSet<"
  };

  /** Reports what {@code scan} set aside, of the live objects of {@code target}'s heap graph. */
  static void run(TriageTarget target, HeapContents.Scan scan, TriageSettings s, Results out) {
    HeapSnapshot h = target.heap();
    LongPredicate live = Heaps.live(h);
    duplicates(target, scan, s, live, out);
    collections(target, scan, s, live, out);
    largeObjectHeap(target, scan.largeObjectHeap(), s, out);
    delegates(target, scan, s, h, live, out);
  }

  private static void duplicates(
      TriageTarget target,
      HeapContents.Scan scan,
      TriageSettings s,
      LongPredicate live,
      Results out) {
    List<HeapContents.Duplicate> all = scan.duplicates(live, 2);
    long wasted = all.stream().mapToLong(HeapContents.Duplicate::wastedBytes).sum();
    int found = 0;
    for (HeapContents.Duplicate d : all) {
      if (d.wastedBytes() < s.minWaste() || found == 5) {
        break;
      }
      found++;
      Evidence.Builder e = Evidence.builder();
      e.object(new Evidence.ObjectEntry(d.sample(), "System.String", d.size(), null, "one copy"));
      e.fact("copies", d.count());
      e.fact("wasted bytes", d.wastedBytes());
      e.fact("value", Words.cut(d.value(), 200));
      out.add(
          new Finding(
              Finding.Kind.DUPLICATE_STRINGS,
              Severity.WARNING,
              Words.count(d.count())
                  + " strings hold the same "
                  + Words.count(d.value().length(), "character", "characters")
                  + ", "
                  + Words.bytes(d.wastedBytes())
                  + " in all but one: \""
                  + Words.cut(d.value(), 40)
                  + "\".",
              e.build(),
              List.of(
                  Next.analyze(target, "duplicates -top 10"),
                  Next.analyze(target, "gcroot " + Next.hex(d.sample())))));
    }
    out.checked(
        "duplicate strings",
        Words.count(all.size(), "value", "values")
            + " held more than once, "
            + Words.bytes(wasted)
            + " in the copies");
  }

  private static void collections(
      TriageTarget target,
      HeapContents.Scan scan,
      TriageSettings s,
      LongPredicate live,
      Results out) {
    Map<String, long[]> byType = new LinkedHashMap<>(); // count, capacity, used, wasted, worst
    for (HeapContents.Fill f : scan.fill(live)) {
      if (!isCollection(f.type())) {
        continue;
      }
      long[] v = byType.computeIfAbsent(f.type(), k -> new long[6]);
      v[0]++;
      v[1] += f.capacity();
      v[2] += f.used();
      v[3] += f.wastedBytes();
      if (f.capacity() - f.used() > v[5]) {
        v[4] = f.address();
        v[5] = f.capacity() - f.used();
      }
    }
    long wasted = 0;
    for (Map.Entry<String, long[]> t : byType.entrySet()) {
      long[] v = t.getValue();
      wasted += v[3];
      if (v[3] < s.minWaste() || v[2] > MOSTLY_EMPTY * v[1]) {
        continue;
      }
      Evidence.Builder e = Evidence.builder();
      e.object(
          new Evidence.ObjectEntry(
              v[4],
              t.getKey(),
              target.sizeOf(v[4]),
              null,
              "the emptiest, " + v[5] + " slots free"));
      e.fact("collections", v[0]);
      e.fact("slots", v[1]);
      e.fact("slots used", v[2]);
      e.fact("unused bytes", v[3]);
      out.add(
          new Finding(
              Finding.Kind.EMPTY_COLLECTIONS,
              Severity.WARNING,
              Words.count(v[0])
                  + " "
                  + t.getKey()
                  + " use "
                  + Words.count(v[2])
                  + " of their "
                  + Words.count(v[1], "slot", "slots")
                  + ": "
                  + Words.bytes(v[3])
                  + " allocated for nothing.",
              e.build(),
              List.of(
                  Next.analyze(target, "fill -top 10"),
                  Next.analyze(target, "gcroot " + Next.hex(v[4])))));
    }
    out.checked(
        "collections",
        Words.count(byType.size(), "collection type", "collection types")
            + " with unused slots, "
            + Words.bytes(wasted)
            + " unused");
  }

  private static boolean isCollection(String type) {
    for (String c : COLLECTIONS) {
      if (type.startsWith(c)) {
        return true;
      }
    }
    return false;
  }

  private static void largeObjectHeap(
      TriageTarget target, HeapContents.LargeObjectSpace loh, TriageSettings s, Results out) {
    double share = loh.freeBytes() / (double) Math.max(1, loh.totalBytes());
    out.checked(
        "large object heap",
        Words.bytes(loh.totalBytes())
            + ", "
            + Words.bytes(loh.freeBytes())
            + " of it free ("
            + Words.percent(share)
            + ")");
    if (loh.freeBytes() < s.minLohFree() || share < s.lohFreeShare()) {
      return;
    }
    Evidence e =
        Evidence.builder()
            .fact("free bytes", loh.freeBytes())
            .fact("free spaces", loh.freeBlocks())
            .fact("large object heap bytes", loh.totalBytes())
            .build();
    out.add(
        new Finding(
            Finding.Kind.LOH_FREE_SPACE,
            Severity.WARNING,
            "The large object heap is "
                + Words.percent(share)
                + " free space: "
                + Words.bytes(loh.freeBytes())
                + " in "
                + Words.count(loh.freeBlocks(), "gap", "gaps")
                + " between its objects, which only new large objects that fit can use.",
            e,
            List.of(
                Next.analyze(target, "dumpgen loh -stat"), Next.analyze(target, "eeheap -gc"))));
  }

  private static void delegates(
      TriageTarget target,
      HeapContents.Scan scan,
      TriageSettings s,
      HeapSnapshot h,
      LongPredicate live,
      Results out) {
    List<HeapContents.InvocationList> found = scan.invocationLists(live);
    for (HeapContents.InvocationList d : found.subList(0, Math.min(5, found.size()))) {
      int i = h.indexOf(d.address());
      List<HeapSnapshot.PathStep> path = i < 0 ? List.of() : Heaps.pathTo(h, i);
      String root = path.isEmpty() ? null : path.get(0).root();
      String method = Stacks.withoutParameters(d.method());
      Evidence.Builder e = Evidence.builder();
      e.object(
          new Evidence.ObjectEntry(
              d.address(), d.type(), d.size(), i < 0 ? null : h.retainedSize(i), "the delegate"));
      e.fact("methods called", d.count());
      if (method != null) {
        e.fact("first method", method);
      }
      if (root != null) {
        e.fact("root", root);
      }
      out.add(
          new Finding(
              Finding.Kind.INVOCATION_LIST,
              Severity.WARNING,
              "A "
                  + d.type()
                  + (root == null ? "" : " held by " + root)
                  + " calls "
                  + Words.count(d.count(), "method", "methods")
                  + (method == null ? "" : " (" + method + " first)")
                  + ": handlers added and never removed keep their targets alive.",
              e.build(),
              List.of(Next.analyze(target, "gcroot " + Next.hex(d.address())))));
    }
    out.checked(
        "delegates",
        Words.count(found.size(), "delegate calls", "delegates call")
            + " "
            + Words.count(s.minInvocations())
            + " methods or more");
  }
}
