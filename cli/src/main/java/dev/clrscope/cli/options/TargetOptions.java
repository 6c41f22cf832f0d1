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
      names = "--show-child-io",
      arity = "0..1",
      defaultValue = "true",
      fallbackValue = "true",
      paramLabel = "true|false",
      description =
          "With -- COMMAND: the app's stdout and stderr go to clrscope's stderr (default: true;"
              + " clrscope's stdout holds only its data); false discards them.")
  boolean showChildIo = true;

  /** Whether a launched app's output goes to clrscope's stderr ({@code --show-child-io}). */
  public boolean showChildIo() {
    return showChildIo;
  }

  @Option(
      names = "--dsrouter",
      paramLabel = "ios|android|ios-sim|android-emu",
      description =
          "Not supported: dotnet-trace and dotnet-counters start dotnet-dsrouter for a mobile"
              + " target. Start dotnet-dsrouter yourself and pass the port it prints with"
              + " --diagnostic-port.")
  String dsrouter;

  @Parameters(
      paramLabel = "FILE | -- COMMAND",
      arity = "0..*",
      description =
          "A saved file to read instead of a target (for the commands that read one), or, after"
              + " --, COMMAND [ARGS...] to launch with its runtime suspended, attach, then resume.")
  List<String> positional = new ArrayList<>();

  /**
   * The words after {@code --}: a command to launch. Only they are: a word before {@code --} is
   * never run, whatever it is (a typo must not execute something).
   */
  public List<String> command() {
    return positional.subList(positional.size() - afterDashes(), positional.size());
  }

  /** The positional words before {@code --}: files to read. */
  public List<String> inputs() {
    return positional.subList(0, positional.size() - afterDashes());
  }

  /** How many positional words came after {@code --}. */
  private int afterDashes() {
    if (mixee == null || mixee.commandLine().getParseResult() == null) {
      return 0;
    }
    List<String> args = mixee.commandLine().getParseResult().originalArgs();
    int dashes = args.indexOf("--");
    return dashes < 0 ? 0 : Math.min(positional.size(), args.size() - dashes - 1);
  }

  /**
   * Whether any target option was given (for commands that also run without one). A file to read
   * ({@link #inputFile()}) is not a target.
   */
  public boolean isChosen() {
    return pid != null || name != null || diagnosticPort != null || !command().isEmpty();
  }

  /**
   * The file given instead of a target, for the commands that read one: the positional word before
   * {@code --}.
   *
   * @return the file, or {@code null} if none was given
   * @throws ParameterException if more than one was given
   */
  public Path inputFile() {
    List<String> inputs = inputs();
    if (inputs.isEmpty()) {
      return null;
    }
    if (inputs.size() > 1) {
      String command = mixee.qualifiedName();
      String words = String.join(" ", inputs);
      throw usage(
          "unexpected words '"
              + words
              + "': "
              + command
              + " takes one FILE to read, or a target; a command to launch goes after --: "
              + command
              + " [OPTIONS] -- "
              + words);
    }
    return Path.of(inputs.get(0));
  }

  /**
   * A usage error for a command that reads no file and was given a word before {@code --}: never a
   * program launched by a typo.
   */
  public ParameterException notAFile() {
    List<String> inputs = inputs();
    String words = String.join(" ", inputs);
    return usage(
        "unexpected "
            + (inputs.size() == 1 ? "word" : "words")
            + " '"
            + words
            + "': only what follows -- is a command to launch ("
            + mixee.qualifiedName()
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
    if (!inputs().isEmpty()) {
      throw notAFile();
    }
    if (dsrouter != null) {
      throw usage(
          "--dsrouter "
              + dsrouter
              + " is for Android and iOS targets, which clrscope does not reach by itself: start"
              + " dotnet-dsrouter yourself (dotnet-dsrouter "
              + dsrouter
              + ") and pass the diagnostic port it prints with --diagnostic-port");
    }
    if (!inputs().isEmpty()) {
      throw notAFile();
    }
    int chosen =
        (pid != null ? 1 : 0)
            + (name != null ? 1 : 0)
            + (diagnosticPort != null ? 1 : 0)
            + (command().isEmpty() ? 0 : 1);
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
    return new TargetSpec.Launch(List.copyOf(command()), timeout);
  }

  private ParameterException usage(String message) {
    return new ParameterException(mixee.commandLine(), message);
  }
}
