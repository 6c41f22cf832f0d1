package dev.clrscope.serve;

import dev.clrscope.ipc.discovery.DotnetProcess;
import java.util.Set;

/**
 * Which of the host's .NET processes {@code serve} watches: those with one of {@code pids}, or
 * known by one of {@code names} ({@link DotnetProcess#isNamed}, as {@code -n} finds a target);
 * every one when both are empty.
 *
 * @param pids process ids (as seen from the host)
 * @param names names, compared ignoring case
 */
public record ProcessSelection(Set<Long> pids, Set<String> names) {
  /** Copies the sets. */
  public ProcessSelection {
    pids = Set.copyOf(pids);
    names = Set.copyOf(names);
  }

  /** Every .NET process of the host. */
  public static ProcessSelection all() {
    return new ProcessSelection(Set.of(), Set.of());
  }

  /** Whether it selects every process. */
  public boolean isAll() {
    return pids.isEmpty() && names.isEmpty();
  }

  /** Whether {@code p} is selected. */
  public boolean selects(DotnetProcess p) {
    return isAll() || pids.contains(p.pid()) || names.stream().anyMatch(p::isNamed);
  }

  /** How a log line says it: {@code every .NET process}, {@code pid 42, name App}. */
  public String describe() {
    if (isAll()) {
      return "every .NET process";
    }
    StringBuilder s = new StringBuilder();
    pids.stream()
        .sorted()
        .forEach(pid -> s.append(s.length() == 0 ? "" : ", ").append("pid ").append(pid));
    names.stream()
        .sorted()
        .forEach(n -> s.append(s.length() == 0 ? "" : ", ").append("name ").append(n));
    return s.toString();
  }
}
