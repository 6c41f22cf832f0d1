package dev.clrscope.triage;

import dev.clrscope.heapwalk.HeapSnapshot;
import dev.clrscope.heapwalk.TypeDiff;
import java.util.List;

/**
 * What triage found in a process or a core.
 *
 * @param target what was read: {@code core /path} or {@code process 1234}
 * @param findings what is wrong, most severe first
 * @param checks what was checked, found wrong or not
 * @param reachableBytes the bytes of the objects roots reach; -1 when the heap was not read
 * @param heap the biggest retainers, three levels down the dominator tree (the heap's picture);
 *     empty when the heap was not read
 * @param grown for a comparison with an earlier heap, the types that grew most by retained size;
 *     else empty
 * @param earlier the earlier heap's source for a comparison, else null
 */
public record TriageResult(
    String target,
    List<Finding> findings,
    List<Check> checks,
    long reachableBytes,
    List<HeapSnapshot.Retainer> heap,
    List<TypeDiff> grown,
    String earlier) {
  /** Copies the lists. */
  public TriageResult {
    findings = List.copyOf(findings);
    checks = List.copyOf(checks);
    heap = List.copyOf(heap);
    grown = List.copyOf(grown);
  }

  /** Whether a finding is at least as severe as {@code threshold}. */
  public boolean hasAtLeast(Severity threshold) {
    return findings.stream().anyMatch(f -> f.severity().atLeast(threshold));
  }

  /** How many findings of each severity, most severe first; zero counts left out. */
  public String tally() {
    StringBuilder sb = new StringBuilder();
    for (Severity s : Severity.values()) {
      long n = findings.stream().filter(f -> f.severity() == s).count();
      if (n > 0) {
        sb.append(sb.length() == 0 ? "" : ", ").append(n).append(' ').append(s.label());
      }
    }
    return sb.toString();
  }
}
