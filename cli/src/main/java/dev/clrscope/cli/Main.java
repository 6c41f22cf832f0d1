package dev.clrscope.cli;

import dev.clrscope.cli.commands.ClrscopeSubcommand;
import dev.clrscope.cli.commands.DacCommand;
import dev.clrscope.cli.commands.analyze.AnalyzeCommand;
import dev.clrscope.cli.dacprocess.DacHost;
import dev.clrscope.cli.dacprocess.Front;
import dev.clrscope.cli.logging.Logging;
import dev.clrscope.cli.options.LoggingOptions;
import dev.clrscope.cli.output.IoErrors;
import dev.clrscope.cli.output.RunOutput;
import dev.clrscope.cli.output.StandardOutput;
import dev.clrscope.ipc.DiagnosticsException;
import dev.clrscope.ipc.RequestTooLargeException;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.ExecutionException;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * The entry point. It maps failures onto three tiers: a usage error (the message, a short usage and
 * exit 2); a target or environment error (one line, {@code clrscope CMD: message}, exit 1);
 * anything else is a bug in clrscope (the stack trace, exit 70).
 *
 * <p>clrscope's own logs are off unless the command line has {@code -v} or {@code --log-file}
 * ({@link Logging}); then they are turned on once the command line is parsed and off again when the
 * run ends.
 */
public final class Main {
  /** The system property that names slf4j's provider. */
  private static final String SLF4J_PROVIDER = "slf4j.provider";

  /** The system property that sets the level of slf4j's own messages. */
  private static final String SLF4J_VERBOSITY = "slf4j.internal.verbosity";

  private Main() {}

  /** The exit code of a process whose reader went away: 128 + SIGPIPE, as for any Unix tool. */
  static final int READER_WENT_AWAY = 141;

  /** Runs clrscope and exits with its exit code. */
  public static void main(String[] args) {
    StandardOutput.install();
    System.exit(run(RunOutput.standard(), args));
  }

  /**
   * Runs clrscope and returns its exit code: data and results on {@code output}'s stdout, the rest
   * (help included) as the streams of {@code output} say.
   */
  public static int run(RunOutput output, String... args) {
    if (args.length == 1 && (args[0].equals("--version") || args[0].equals("-V"))) {
      // Scripts call this to check the tool is there: answer without building any command model
      // (and without binding slf4j).
      for (String line : new ClrscopeVersion().getVersion()) {
        output.out().println(line);
      }
      output.out().flush();
      return ExitCode.OK;
    }
    chooseLogProvider();
    if (!DacHost.isHost()) {
      Integer answered = runWithoutParser(output, args);
      if (answered != null) {
        return answered;
      }
      // A command that reads through the DAC runs in a DAC process, started before anything here
      // is parsed (docs/architecture.md, "The DAC process").
      Front.Outcome handedOver = Front.runIfPredicted(output, args);
      if (handedOver != null) {
        return checkOutput(output, handedOver.code(), handedOver::command);
      }
    }
    CommandLine cl = ClrscopeCommand.commandLineFor(args);
    cl.setOut(writer(output.out()));
    cl.setErr(writer(output.err()));
    boolean[] logging = {false};
    cl.setParameterExceptionHandler(Main::usageError);
    cl.setExecutionStrategy(parsed -> execute(parsed, output, logging, args));
    cl.setExecutionExceptionHandler(
        (e, commandLine, parseResult) -> failure(e, commandLine, args, logging[0]));
    try {
      int code = cl.execute(ColonValues.rewrite(cl, args));
      return checkOutput(output, code, () -> ranCommand(cl));
    } finally {
      if (logging[0]) {
        Logging.stop();
      }
    }
  }

  /**
   * Has slf4j bind logback through clrscope's silent provider without searching the class path for
   * providers (unless the JVM was told otherwise), and without saying so on stderr: slf4j reports
   * an explicitly named provider at its INFO level.
   */
  private static void chooseLogProvider() {
    if (System.getProperty(SLF4J_PROVIDER) == null) {
      System.setProperty(SLF4J_PROVIDER, "dev.clrscope.cli.logging.LogbackProvider");
    }
    if (System.getProperty(SLF4J_VERBOSITY) == null) {
      System.setProperty(SLF4J_VERBOSITY, "WARN");
    }
  }

  /**
   * Runs the parsed command as picocli would, after turning logs on if the command line asks for
   * them. A log file that cannot be opened is a target error of the command. A command that reads
   * through the DAC is handed, with the whole command line, to a DAC process; in a DAC process, any
   * other is handed back.
   */
  private static int execute(
      ParseResult parsed, RunOutput output, boolean[] logging, String[] args) {
    List<CommandLine> chain = parsed.asCommandLineList();
    CommandLine command = chain.get(chain.size() - 1);
    boolean readsThroughDac =
        !helpRequested(parsed)
            && command.getCommand() instanceof DacCommand d
            && d.readsThroughDac();
    if (DacHost.isHost()) {
      if (!readsThroughDac) {
        return DacHost.notMine();
      }
      DacHost.commandNamed(command.getCommandSpec().qualifiedName());
    } else if (readsThroughDac && Front.handsOver()) {
      Integer code = Front.run(output, args);
      if (code != null) {
        return code;
      }
    }
    for (CommandLine c : chain) {
      if (c.getCommand() instanceof ClrscopeSubcommand sub) {
        sub.useOutput(output);
      }
    }
    if (!helpRequested(parsed)) {
      LoggingOptions.Request request = LoggingOptions.requested(parsed);
      if (request.any()) {
        try {
          Logging.start(request.verbose(), request.logFile(), output.err());
        } catch (CommandFailure e) {
          throw new ExecutionException(command, e.getMessage(), e);
        }
        logging[0] = true;
        Logging.runStarted(command.getCommandSpec().qualifiedName());
      } else {
        Logging.bind();
      }
    }
    try {
      return new CommandLine.RunLast().execute(parsed);
    } catch (OutOfMemoryError e) {
      // A heap snapshot of tens of millions of objects, or a huge trace, can outgrow the heap the
      // JVM chose: that is an environment limit with a remedy, not a bug.
      throw new ExecutionException(
          command,
          "out of Java heap",
          new CommandFailure(
              String.format(
                  Locale.ROOT,
                  "ran out of Java heap (%,d MB allowed): raise the limit, for example"
                      + " CLRSCOPE_JAVA_OPTS=-Xmx8g ./clrscope ...",
                  Runtime.getRuntime().maxMemory() >> 20)));
    }
  }

  /**
   * The exit code once standard output is flushed: data that never reached it (a full disk) is a
   * failure, never a success; a reader that went away ({@code | head}) ends the run quietly with
   * {@link #READER_WENT_AWAY}.
   */
  private static int checkOutput(RunOutput output, int code, Supplier<String> command) {
    output.out().flush();
    IOException e = StandardOutput.failure();
    if (e == null) {
      return code;
    }
    if (StandardOutput.readerWentAway(e)) {
      return code == ExitCode.OK ? READER_WENT_AWAY : code;
    }
    output
        .err()
        .println(
            command.get()
                + ": could not write to standard output: "
                + IoErrors.reason(e)
                + "; what it printed is incomplete");
    output.err().flush();
    return code == ExitCode.OK ? ExitCode.TARGET_ERROR : code;
  }

  /** The qualified name of the command that {@code cl} parsed and ran. */
  private static String ranCommand(CommandLine cl) {
    String command = cl.getCommandSpec().qualifiedName();
    for (ParseResult p = cl.getParseResult(); p != null; p = p.subcommand()) {
      command = p.commandSpec().qualifiedName();
    }
    return command;
  }

  /**
   * Runs a command line that needs no parser ({@link ClrscopeCommand#runWithoutParser}), with the
   * same exit codes and failure tiers as a parsed one; {@code null} when it needs the parser.
   */
  private static Integer runWithoutParser(RunOutput output, String[] args) {
    Integer code;
    try {
      code = ClrscopeCommand.runWithoutParser(output, args);
    } catch (RuntimeException e) {
      // Reported as a parsed run reports it; the model is built only on this rare path.
      CommandLine root = ClrscopeCommand.commandLineFor(args);
      root.setErr(writer(output.err()));
      CommandLine command = root.getSubcommands().get(args[0]);
      command.setErr(writer(output.err()));
      int failed = failure(e, command, args, false);
      return checkOutput(output, failed, () -> "clrscope " + args[0]);
    }
    return code == null ? null : checkOutput(output, code, () -> "clrscope " + args[0]);
  }

  /** A writer for picocli's help and messages on {@code stream}, in UTF-8, flushed each line. */
  private static PrintWriter writer(PrintStream stream) {
    return new PrintWriter(new OutputStreamWriter(stream, StandardCharsets.UTF_8), true);
  }

  /**
   * Reports what a command threw, on the tier it belongs to, and returns the exit code.
   *
   * @param logging whether logs are on, so that the failure goes to the log file too
   */
  static int failure(Exception e, CommandLine commandLine, String[] args, boolean logging) {
    if (e instanceof ParameterException pe) {
      return usageError(pe, args);
    }
    if (e instanceof RequestTooLargeException) {
      // Nothing was sent: what the user asked for does not fit one message of the protocol.
      return usageError(new ParameterException(commandLine, e.getMessage()), args);
    }
    String command = commandLine.getCommandSpec().qualifiedName();
    if (e instanceof DiagnosticsException || e instanceof CommandFailure) {
      String message = command + ": " + e.getMessage();
      if (logging) {
        Logging.runFailed(message, e, false);
      }
      commandLine.getErr().println(message);
      commandLine.getErr().flush();
      return ExitCode.TARGET_ERROR;
    }
    if (logging) {
      Logging.runFailed(command + ": internal error", e, true);
    }
    commandLine.getErr().println(command + ": internal error, please report it:");
    e.printStackTrace(commandLine.getErr());
    commandLine.getErr().flush();
    return ExitCode.INTERNAL_ERROR;
  }

  /** Whether the command line only asks for help or the version, which log nothing. */
  private static boolean helpRequested(ParseResult parsed) {
    for (ParseResult p = parsed; p != null; p = p.subcommand()) {
      if (p.isUsageHelpRequested() || p.isVersionHelpRequested()) {
        return true;
      }
    }
    return false;
  }

  private static int usageError(ParameterException e, String[] args) {
    CommandLine cl = e.getCommandLine();
    PrintWriter err = cl.getErr();
    String command = cl.getCommandSpec().qualifiedName();
    err.println(command + ": " + e.getMessage());
    String sos =
        e instanceof UnmatchedArgumentException && cl.getParent() == null && args.length > 0
            ? AnalyzeCommand.promptCommand(args[0])
            : null;
    if (sos != null) {
      // dotnet-dump's habit: SOS's commands are analyze's, on a core or a paused process.
      String line = String.join(" ", args);
      err.println(
          "Did you mean `clrscope analyze CORE -c \""
              + line
              + "\"` (or -p PID instead of CORE)? "
              + sos
              + " is a command of analyze's prompt, as in dotnet-dump analyze.");
    }
    err.print(cl.getHelp().synopsis(0));
    err.println("Try '" + command + " --help' for more information.");
    err.flush();
    return ExitCode.USAGE;
  }
}
