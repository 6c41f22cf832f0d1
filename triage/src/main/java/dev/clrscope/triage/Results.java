package dev.clrscope.triage;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * What the detectors hand in: findings and what each checked, each kept with the rank of the area
 * it came from, so that the report lists areas in one order whatever order they ran in.
 */
final class Results {
  private record Ranked<T>(int rank, T item) {}

  private final List<Ranked<Finding>> findings = new ArrayList<>();
  private final List<Ranked<Check>> checks = new ArrayList<>();
  private int rank;

  /** The area what comes next belongs to: its place in the report. */
  void area(int place) {
    rank = place;
  }

  void add(Finding f) {
    findings.add(new Ranked<>(rank, f));
  }

  void checked(String area, String result) {
    checks.add(new Ranked<>(rank, new Check(area, result)));
  }

  /** The findings, most severe first, then in their areas' order. */
  List<Finding> findings() {
    return findings.stream()
        .sorted(
            Comparator.comparing((Ranked<Finding> r) -> r.item().severity())
                .thenComparingInt(Ranked::rank))
        .map(Ranked::item)
        .toList();
  }

  /** What was checked, in the areas' order. */
  List<Check> checks() {
    return checks.stream().sorted(Comparator.comparingInt(Ranked::rank)).map(Ranked::item).toList();
  }
}
