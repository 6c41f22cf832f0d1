package dev.clrscope.triage;

import java.util.ArrayList;
import java.util.List;

/** What the detectors hand in: findings and what each checked. */
final class Results {
  final List<Finding> findings = new ArrayList<>();
  final List<Check> checks = new ArrayList<>();

  void add(Finding f) {
    findings.add(f);
  }

  void checked(String area, String result) {
    checks.add(new Check(area, result));
  }
}
