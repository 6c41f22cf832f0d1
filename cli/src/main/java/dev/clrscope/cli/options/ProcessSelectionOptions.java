package dev.clrscope.cli.options;

import dev.clrscope.serve.ProcessSelection;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code -p} and {@code -n} for a command that watches several processes ({@code serve}): spelt as
 * {@link TargetOptions} spells them, but each may be given several times (or as a comma list), and
 * they mean "only these"; none means every .NET process of the host.
 */
public final class ProcessSelectionOptions {
  @Spec(Spec.Target.MIXEE)
  CommandSpec mixee;

  @Option(
      names = {"-p", "--process-id"},
      paramLabel = "PID",
      split = ",",
      converter = Numbers.Pid.class,
      description =
          "Watch only this process (repeatable, or a comma list: -p 42,43); with -n, processes"
              + " either selects. Default: every .NET process of the host.")
  List<Long> pids = new ArrayList<>();

  @Option(
      names = {"-n", "--name"},
      paramLabel = "NAME",
      split = ",",
      description =
          "Watch only processes of this name (its process name, executable or entry assembly,"
              + " ignoring case; repeatable or a comma list), including those that start later.")
  List<String> names = new ArrayList<>();

  /** The selection, validated: positive pids, names that are not blank. */
  public ProcessSelection selection() {
    var parsed = mixee.commandLine().getParseResult();
    if (parsed != null && parsed.hasMatchedOption("-p") && pids.isEmpty()) {
      throw usage("-p takes process ids (-p 42 or -p 42,43), got none");
    }
    if (parsed != null && parsed.hasMatchedOption("-n") && names.isEmpty()) {
      throw usage("-n takes process names (-n MyApp or -n MyApp,Worker), got none");
    }
    Set<Long> p = new LinkedHashSet<>();
    p.addAll(pids);
    Set<String> n = new LinkedHashSet<>();
    for (String name : names) {
      if (name == null || name.isBlank()) {
        throw usage("-n takes process names, got an empty one");
      }
      n.add(name.strip());
    }
    return new ProcessSelection(p, n);
  }

  private ParameterException usage(String message) {
    return new ParameterException(mixee.commandLine(), message);
  }
}
