package dev.clrscope.cli.options;

import dev.clrscope.cli.attach.TargetResolver;
import dev.clrscope.ipc.discovery.EndpointLocator;
import java.io.PrintStream;
import picocli.CommandLine.Option;

/**
 * {@code -p PID} or {@code -n NAME} of the commands that read a live process through the DAC
 * instead of a core file ({@code analyze}, {@code triage}): the process is paused while it is read,
 * so these name no diagnostic port and no timeout, unlike {@link TargetOptions}.
 */
public final class PausedProcessOptions {
  @Option(
      names = {"-p", "--process-id"},
      paramLabel = "PID",
      converter = Numbers.Pid.class,
      description = "A live process to pause and read instead of a core file.")
  Long pid;

  @Option(
      names = {"-n", "--name"},
      paramLabel = "NAME",
      description = "A live .NET process by name (process name, executable or entry assembly).")
  String name;

  /** How many of {@code -p} and {@code -n} were given: 0, 1 or 2. */
  public int given() {
    return (pid != null ? 1 : 0) + (name != null ? 1 : 0);
  }

  /** The process {@code -p} gives, or the one process {@code -n} names (none or several: fails). */
  public int resolve(PrintStream err) {
    return pid != null
        ? (int) (long) pid
        : (int) new TargetResolver(new EndpointLocator(), err).findByName(name).pid();
  }
}
