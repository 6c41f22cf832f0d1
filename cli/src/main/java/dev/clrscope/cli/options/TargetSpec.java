package dev.clrscope.cli.options;

import java.time.Duration;
import java.util.List;

/** A validated choice of target, as a plain value the target resolver acts on. */
public sealed interface TargetSpec {
  /** How long to wait for connections and replies. */
  Duration timeout();

  /**
   * A process by id.
   *
   * @param pid the process id
   * @param timeout how long to wait
   */
  record ByPid(long pid, Duration timeout) implements TargetSpec {}

  /**
   * A process by name.
   *
   * @param name the name to match
   * @param timeout how long to wait
   */
  record ByName(String name, Duration timeout) implements TargetSpec {}

  /**
   * A runtime reached through a diagnostic port.
   *
   * @param port the port and its mode
   * @param timeout how long to wait
   */
  record ByPort(DiagnosticPortSpec port, Duration timeout) implements TargetSpec {}

  /**
   * A command to launch under clrscope.
   *
   * @param command the program and its arguments
   * @param timeout how long to wait
   */
  record Launch(List<String> command, Duration timeout) implements TargetSpec {}
}
