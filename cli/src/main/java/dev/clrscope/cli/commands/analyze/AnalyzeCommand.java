package dev.clrscope.cli.commands.analyze;

import dev.clrscope.cli.CommandFailure;
import dev.clrscope.cli.ExitCode;
import dev.clrscope.cli.commands.ClrscopeSubcommand;
import dev.clrscope.cli.commands.DacCommand;
import dev.clrscope.cli.dacprocess.DacHost;
import dev.clrscope.cli.options.DacSourceOptions;
import dev.clrscope.cli.options.FormatOption;
import dev.clrscope.cli.options.LineOptions;
import dev.clrscope.cli.options.PausedProcessOptions;
import dev.clrscope.cli.render.Result;
import dev.clrscope.cli.render.Terminal;
import dev.clrscope.dac.DacOptions;
import dev.clrscope.dac.RuntimeInfo;
import dev.clrscope.dac.TargetException;
import dev.clrscope.symbols.SourceLines;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/**
 * {@code clrscope analyze CORE | -p PID | -n NAME}: dotnet-dump's {@code analyze} (SOS's commands)
 * on a core dump or on a live process, paused while each command reads it. Commands given with
 * {@code -c} run first; then a prompt when stdin is a terminal, commands read from stdin's lines
 * when it is not and no {@code -c} was given, or the end.
 */
@Command(
    name = AnalyzeCommand.NAME,
    mixinStandardHelpOptions = true,
    description = {
      "Inspect a core dump (clrscope dump writes one) or a live process with dotnet-dump's"
          + " commands: dumpheap -stat, dumpobj, gcroot, clrstack, pe, threads, eeheap, pstacks,"
          + " timerinfo and more (`help` at the prompt lists them). The runtime's own DAC reads"
          + " the target. A live process is paused (ptrace) while a command reads it and let go"
          + " after, even on Ctrl+C; how long it was paused is said on stderr."
    },
    footer = {
      "",
      "Examples:",
      "  clrscope analyze app.core",
      "  clrscope analyze app.core -c \"dumpheap -stat\" --format json",
      "  clrscope analyze -p 1234 -c \"clrstack -all\" -c exit",
      "",
      "With -c and stdin not a terminal, analyze ends after the commands; with neither, it reads"
          + " commands from stdin, one a line. JSON is one document per command, one a line."
    })
public final class AnalyzeCommand extends ClrscopeSubcommand implements DacCommand {
  /** The command's name. */
  static final String NAME = "analyze";

  @Parameters(index = "0", arity = "0..1", paramLabel = "CORE", description = "The core file.")
  Path core;

  @Mixin PausedProcessOptions process;

  @Option(
      names = {"-c", "--command"},
      paramLabel = "COMMAND",
      description =
          "A command to run first (repeatable, in order), as at the prompt: -c \"dumpheap -stat\";"
              + " -c exit ends after them.")
  List<String> commands = new ArrayList<>();

  @Mixin DacSourceOptions dacSource;

  @Mixin LineOptions lines;

  @Mixin FormatOption format;

  @Override
  public boolean readsThroughDac() {
    return true;
  }

  @Override
  public boolean mayReadThroughDac(List<String> words) {
    return !words.isEmpty() && words.get(0).equals(NAME);
  }

  @Override
  protected Result run() {
    return Result.exit(session());
  }

  /**
   * The SOS name of the prompt's command {@code word} names ({@code dumpheap}, {@code clrstack}),
   * or {@code null}: for the hint when someone types it as clrscope's own command.
   */
  public static String promptCommand(String word) {
    SosCommand c = CommandTable.standard().find(word);
    return c == null || c instanceof Exit || c instanceof Help ? null : c.name();
  }

  private int session() {
    int chosen = (core != null ? 1 : 0) + process.given();
    if (chosen != 1) {
      throw new ParameterException(
          spec.commandLine(),
          chosen == 0
              ? "give a core file, -p PID or -n NAME"
              : "give one of a core file, -p PID and -n NAME");
    }
    DacOptions options = dacSource.dacOptions(this::warn);
    // PDBs are downloaded only from a server given here: the default one is the DAC's.
    SourceLines sourceLines = lines.sourceLines(dacSource.pdbServer());
    AnalysisTarget target = open(options);
    try (target) {
      AnalyzeShell shell = new AnalyzeShell(target, format.format(), sourceLines, out(), err());
      // A DAC process that goes on from one that ended under the prompt goes straight to it.
      boolean resumed = DacHost.resumed();
      if (!resumed) {
        Batch batch = runBatch(shell);
        if (batch.code() != ExitCode.OK || batch.exited()) {
          return batch.code();
        }
      }
      if (Terminal.isTerminal(0)) {
        try {
          return new Prompt(shell, err()).run(commands.isEmpty() && !resumed);
        } catch (AnalysisTarget.Unavailable e) {
          // The greeting reads the target first: a live process that cannot be read ends here.
          throw new CommandFailure(e.getMessage(), e);
        }
      }
      if (commands.isEmpty()) {
        // A live process that cannot be read is said before any command is read.
        try {
          target.pause();
        } catch (AnalysisTarget.Unavailable e) {
          throw new CommandFailure(e.getMessage(), e);
        } finally {
          target.release(err());
        }
        return readLines(shell);
      }
      return ExitCode.OK;
    }
  }

  private AnalysisTarget open(DacOptions options) {
    try {
      if (core != null) {
        return AnalysisTarget.core(core, options);
      }
      return AnalysisTarget.live(process.resolve(err()), options);
    } catch (TargetException e) {
      throw new CommandFailure(e.getMessage(), e);
    }
  }

  /** How the {@code -c} commands went. */
  private record Batch(int code, boolean exited) {}

  /**
   * Runs the {@code -c} commands in order, a live process paused once for all of them. The first
   * that fails ends the run: exit 1 for what the target says, 2 for a command used wrongly.
   */
  private Batch runBatch(AnalyzeShell shell) {
    if (commands.isEmpty()) {
      return new Batch(ExitCode.OK, false);
    }
    int width = AnalyzeShell.stdoutWidth();
    String running = null;
    try {
      for (String line : commands) {
        AnalyzeShell.Parsed p = shell.parse(line);
        if (p == null) {
          continue;
        }
        if (AnalyzeShell.isExit(p)) {
          return whole(shell, new Batch(ExitCode.OK, true));
        }
        running = p.command().name();
        shell.run(p, width);
      }
      return whole(shell, new Batch(ExitCode.OK, false));
    } catch (SosUsageException e) {
      err().println(spec.qualifiedName() + ": " + e.getMessage());
      return new Batch(ExitCode.USAGE, true);
    } catch (TargetException e) {
      err().println(spec.qualifiedName() + ": " + running + ": " + e.getMessage());
      return new Batch(ExitCode.TARGET_ERROR, true);
    } catch (AnalysisTarget.Unavailable e) {
      err().println(spec.qualifiedName() + ": " + e.getMessage());
      return new Batch(ExitCode.TARGET_ERROR, true);
    } finally {
      shell.target().release(err());
    }
  }

  /**
   * {@code done}, unless a command met a heap it could not read whole: then the run ends with exit
   * 1 and one line, after every result was printed, so a script never takes part of a heap for the
   * whole.
   */
  private Batch whole(AnalyzeShell shell, Batch done) {
    if (shell.heapNotWhole() == null) {
      return done;
    }
    err().println(spec.qualifiedName() + ": " + notWholeLine(shell));
    return new Batch(ExitCode.TARGET_ERROR, true);
  }

  private static String notWholeLine(AnalyzeShell shell) {
    return "the heap was not read whole: "
        + shell.heapNotWhole()
        + "; the results count only what could be read (the core may be damaged or cut short)";
  }

  /** Commands from stdin's lines (stdin is not a terminal), each as at the prompt. */
  private int readLines(AnalyzeShell shell) {
    int width = AnalyzeShell.stdoutWidth();
    int code = ExitCode.OK;
    for (DacHost.Line line = DacHost.readLine(false, "");
        line != null;
        line = DacHost.readLine(false, "")) {
      code =
          Math.max(
              code, runOne(shell, line.text(), width, err()) ? ExitCode.OK : ExitCode.TARGET_ERROR);
      if (exitRequested) {
        break;
      }
    }
    if (shell.heapNotWhole() != null) {
      err().println(spec.qualifiedName() + ": " + notWholeLine(shell));
      code = ExitCode.TARGET_ERROR;
    }
    return code;
  }

  private boolean exitRequested;

  /**
   * Runs one line as the prompt does: an error is one line on stderr and the session goes on.
   *
   * @return whether it succeeded
   */
  boolean runOne(AnalyzeShell shell, String line, int width, java.io.PrintStream err) {
    return Prompt.runLine(shell, line, width, err, () -> exitRequested = true);
  }

  /** One line about the runtime read, for the prompt's greeting. */
  public static String describeRuntime(RuntimeInfo r) {
    return r.runtimeName()
        + ", "
        + r.gcMode()
        + " GC with "
        + (r.regions() ? "regions" : "segments")
        + (r.heapCount() > 1 ? ", " + r.heapCount() + " heaps" : "");
  }
}
