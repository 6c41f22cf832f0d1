package dev.clrscope.triage;

import dev.clrscope.heapwalk.HeapSnapshot;
import dev.clrscope.heapwalk.TypeDiff;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * What grew between an earlier heap and this one, by retained size (two cores, or a core and now).
 */
final class Growth {
  private Growth() {}

  /** Types in the growth table at most. */
  static final int TOP = 15;

  /** The types that grew most in what they retain, most first. */
  static List<TypeDiff> grown(HeapSnapshot before, HeapSnapshot after) {
    List<TypeDiff> rows = new ArrayList<>(TypeDiff.between(before, after));
    rows.removeIf(d -> d.retainedDelta() <= 0 && d.sizeDelta() <= 0);
    rows.sort(
        Comparator.comparingLong(TypeDiff::retainedDelta)
            .thenComparingLong(TypeDiff::sizeDelta)
            .reversed()
            .thenComparing(TypeDiff::type));
    return rows.subList(0, Math.min(TOP, rows.size()));
  }

  static void run(
      TriageTarget target,
      TriageSettings s,
      String earlier,
      HeapSnapshot before,
      List<TypeDiff> grown,
      Results out) {
    HeapSnapshot after = target.heap();
    long was = before.reachableSize();
    long is = after.reachableSize();
    long delta = is - was;
    out.checked(
        "growth",
        "from "
            + Words.bytes(was)
            + " in "
            + earlier
            + " to "
            + Words.bytes(is)
            + " ("
            + (delta >= 0 ? "+" : "")
            + Words.count(delta)
            + ")");
    if (delta < s.minWaste() || grown.isEmpty()) {
      return;
    }
    TypeDiff top = grown.get(0);
    Evidence.Builder e = Evidence.builder();
    e.fact("bytes before", was);
    e.fact("bytes now", is);
    for (TypeDiff d : grown.subList(0, Math.min(5, grown.size()))) {
      e.fact("retained growth: " + d.type(), d.retainedDelta());
    }
    out.add(
        new Finding(
            Finding.Kind.GROWTH,
            Severity.WARNING,
            "The heap grew by "
                + Words.bytes(delta)
                + " ("
                + Words.percent(delta / (double) Math.max(1, was))
                + ") since "
                + earlier
                + "; what "
                + top.type()
                + " retains grew most: +"
                + Words.bytes(top.retainedDelta())
                + ", "
                + (top.countDelta() >= 0 ? "+" : "")
                + Words.count(top.countDelta(), "object", "objects")
                + ".",
            e.build(),
            List.of(Next.analyze(target, "retained -type " + Next.quoted(top.type())))));
  }
}
