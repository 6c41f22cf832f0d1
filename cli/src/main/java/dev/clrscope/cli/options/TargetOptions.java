package dev.clrscope.cli.options;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** How every attaching command chooses its target: exactly one of four ways. */
public final class TargetOptions {
  @Spec(Spec.Target.MIXEE)
  CommandSpec mixee;

  @Option(
      names = {"-p", "--process-id"},
      paramLabel = "PID",
      converter = Numbers.Pid.class,
      description = "The target's process id.")
  Long pid;

  @Option(
      names = {"-n", "--name"},
      paramLabel = "NAME",
      description =
          "The target's name: its process name, executable or entry assembly (must be unique).")
  String name;

  @Option(
      names = {"--diagnostic-port", "--dport"},
      paramLabel = "PATH[,listen|connect]",
      description =
          "Listen on PATH for a runtime started with DOTNET_DiagnosticPorts=PATH (listen, the"
              + " default), or connect to a runtime listening on PATH (connect).")
  String diagnosticPort;

  @Option(
      names = {"-t", "--timeout"},
      paramLabel = "SECONDS",
      defaultValue = "10",
      description =
          "How long to wait for the target to connect or answer (default: ${DEFAULT-VALUE} s).")
  int timeoutSeconds = 10;

  /** {@code -t/--timeout} when the command line gives it, else null. */
  public java.time.Duration timeoutGiven() {
    return mixee.commandLine().getParseResult().hasMatchedOption("--timeout")
        ? java.time.Duration.ofSeconds(timeoutSeconds)
        : null;
  }

  @Option(
      names = "--resume-runtime",
      paramLabel = "true|false",
      arity = "0..1",
      defaultValue = "true",
      fallbackValue = "true",
      description =
          "Resume a runtime waiting at startup (a launched app, a --diagnostic-port runtime) once"
              + " the session runs (default: true). false leaves it waiting, as in dotnet-trace: a"
              + " launched app is then ended with clrscope; `clrscope resume` releases others.")
  boolean resumeRuntime = true;

  @Option(
      names = "--dsrouter",
      paramLabel = "ios|android|ios-sim|android-emu",
      description =
          "Not supported: dotnet-trace and dotnet-counters start dotnet-dsrouter for a mobile"
              + " target. Start dotnet-dsrouter yourself and pass the port it prints with"
              + " --diagnostic-port.")
  String dsrouter;

  @Parameters(
      paramLabel = "-- COMMAND",
      arity = "0..*",
      description = "Launch COMMAND [ARGS...] with its runtime suspended, attach, then resume it.")
  List<String> command = new ArrayList<>();

  /**
   * A command that also reads a saved trace where a target would be ({@code exceptions FILE}): its
   * one positional word given without {@code --} is that file.
   */
  public interface ReadsSavedTrace {}

  /**
   * Whether any target option was given (for commands that also run without one). A saved trace
   * ({@link #traceFile()}) is not a target.
   */
  public boolean isChosen() {
    return pid != null
        || name != null
        || diagnosticPort != null
        || (!command.isEmpty() && traceFile() == null);
  }

  /**
   * The saved trace given instead of a target, for the commands that also analyse one: their only
   * positional word, given without {@code --} (which would make it a command to launch).
   *
   * @return the file, or {@code null} if none was given
   */
  public Path traceFile() {
    List<String> before = wordsBeforeDashes();
    if (!(mixee.userObject() instanceof ReadsSavedTrace)
        || before.size() != 1
        || !launchWords().isEmpty()) {
      return null;
    }
    return Path.of(before.get(0));
  }

  /**
   * The words after {@code --}: the command to launch. Picocli never takes {@code --} as an
   * option's value, so the first one on the command line is where the command starts.
   */
  private List<String> launchWords() {
    var parsed = mixee.commandLine().getParseResult();
    if (parsed == null) {
      return List.of();
    }
    List<String> args = parsed.originalArgs();
    int dashes = args.indexOf("--");
    int after = dashes < 0 ? 0 : args.size() - dashes - 1;
    // The positional list ends with them; anything before came without --.
    return command.subList(command.size() - Math.min(after, command.size()), command.size());
  }

  /** Positional words given without {@code --}: never a command to launch. */
  private List<String> wordsBeforeDashes() {
    return command.subList(0, command.size() - launchWords().size());
  }

  /**
   * Refuses positional words that came without {@code --}: a typo must never start a program. A
   * command that reads saved traces takes one such word, the trace, and no target beside it.
   */
  private void checkPositionalWords() {
    List<String> before = wordsBeforeDashes();
    if (before.isEmpty()) {
      return;
    }
    String command = mixee.qualifiedName();
    String words = String.join(" ", before);
    if (mixee.userObject() instanceof ReadsSavedTrace) {
      if (before.size() == 1) {
        throw usage(
            "give a saved trace ("
                + words
                + ") or a target (-p, -n, --diagnostic-port, -- COMMAND), not both");
      }
      throw usage(
          "unexpected words '"
              + words
              + "': "
              + command
              + " takes one FILE.nettrace to read, or a target; a command to launch goes after"
              + " --: "
              + command
              + " [OPTIONS] -- "
              + words);
    }
    throw usage(
        "unexpected "
            + (before.size() == 1 ? "word" : "words")
            + " '"
            + words
            + "': only what follows -- is a command to launch ("
            + command
            + " [OPTIONS] -- "
            + words
            + ")");
  }

  /** Whether a runtime waiting at startup is to be resumed ({@code --resume-runtime}). */
  public boolean resumeRuntime() {
    return resumeRuntime;
  }

  /** The selected target, validated: exactly one of -p, -n, --diagnostic-port, -- COMMAND. */
  public TargetSpec spec() {
    if (dsrouter != null) {
      throw usage(
          "--dsrouter "
              + dsrouter
              + " is for Android and iOS targets, which clrscope does not reach by itself: start"
              + " dotnet-dsrouter yourself (dotnet-dsrouter "
              + dsrouter
              + ") and pass the diagnostic port it prints with --diagnostic-port");
    }
    checkPositionalWords();
    int chosen =
        (pid != null ? 1 : 0)
            + (name != null ? 1 : 0)
            + (diagnosticPort != null ? 1 : 0)
            + (command.isEmpty() ? 0 : 1);
    if (chosen == 0) {
      throw usage(
          "choose a target: -p PID, -n NAME, --diagnostic-port PATH, or -- COMMAND [ARGS]"
              + " (`clrscope ps` lists .NET processes)");
    }
    if (chosen > 1) {
      throw usage(
          "choose one target only: -p, -n, --diagnostic-port and -- COMMAND exclude each other");
    }
    if (timeoutSeconds <= 0) {
      throw usage("--timeout must be a positive number of seconds, got " + timeoutSeconds);
    }
    Duration timeout = Duration.ofSeconds(timeoutSeconds);
    if (pid != null) {
      return new TargetSpec.ByPid(pid, timeout);
    }
    if (name != null) {
      return new TargetSpec.ByName(name, timeout);
    }
    if (diagnosticPort != null) {
      try {
        return new TargetSpec.ByPort(DiagnosticPortSpec.parse(diagnosticPort), timeout);
      } catch (IllegalArgumentException e) {
        throw usage(e.getMessage());
      }
    }
    return new TargetSpec.Launch(List.copyOf(command), timeout);
  }

  private ParameterException usage(String message) {
    return new ParameterException(mixee.commandLine(), message);
  }
}
