package dev.clrscope.cli.commands;

import dev.clrscope.cli.ClrscopeVersion;
import dev.clrscope.cli.CommandFailure;
import dev.clrscope.cli.options.LoggingOptions;
import dev.clrscope.cli.options.OptionDefaults;
import dev.clrscope.cli.output.RunOutput;
import dev.clrscope.cli.render.OutputFormat;
import dev.clrscope.cli.render.Result;
import java.io.PrintStream;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Spec;

/**
 * The small base of every subcommand: {@link #run()} returns the command's {@link Result}, which is
 * drawn in the format of the command's {@code --format} (whichever option class declares it) on the
 * run's output; progress and warnings go to {@link #err()}. Every subcommand inherits {@code
 * --help}, {@code --version}, {@code -v/--verbose} and {@code --log-file} from here.
 */
@Command(
    mixinStandardHelpOptions = true,
    versionProvider = ClrscopeVersion.class,
    defaultValueProvider = OptionDefaults.class)
public abstract class ClrscopeSubcommand implements Callable<Integer> {
  /** The picocli model of this command, for its name and usage errors. */
  @Spec protected CommandSpec spec;

  /** {@code -v} and {@code --log-file}: read by {@code Main} from the parse result. */
  @SuppressWarnings("UnusedVariable")
  @Mixin
  private LoggingOptions logging;

  private RunOutput output = RunOutput.standard();

  /** Where this run writes ({@code Main} sets it before the command runs). */
  public final void useOutput(RunOutput runOutput) {
    this.output = runOutput;
  }

  /** The command's work, and what it found: drawn once it returns (records: as they come). */
  protected abstract Result run();

  @Override
  public Integer call() {
    return draw(run());
  }

  /** Draws {@code result} in the format chosen; returns its exit code. */
  protected final int draw(Result result) {
    output.draw(result, format());
    if (result.failureAfterDrawn() != null) {
      throw new CommandFailure(result.failureAfterDrawn());
    }
    return result.exitCode();
  }

  /**
   * The format chosen with this command's {@code --format}: the one option of that name whose
   * values are output formats; a table when the command has none (or {@code --format} names a file
   * format, as in {@code trace collect}).
   */
  protected final OutputFormat format() {
    OptionSpec option = spec == null ? null : spec.findOption("--format");
    if (option != null && option.getValue() instanceof OutputFormat f) {
      return f;
    }
    return OutputFormat.table;
  }

  /** The run's output, for what draws results itself (analyze's prompt). */
  protected final RunOutput output() {
    return output;
  }

  /**
   * Where raw data goes: a file's bytes asked for on stdout ({@code -o -}), or a terminal view the
   * command draws itself. Results go through {@link #run()}'s return instead.
   */
  protected PrintStream out() {
    return output.out();
  }

  /** Where progress, warnings and notes go. */
  protected PrintStream err() {
    return output.err();
  }

  /** Prints a warning line, prefixed as errors are: {@code clrscope CMD: message}. */
  protected void warn(String message) {
    warn(err(), spec.qualifiedName(), message);
  }

  /** Prints a warning line of {@code command} ({@code clrscope ps}, say) on {@code err}. */
  static void warn(PrintStream err, String command, String message) {
    err.println(command + ": " + message);
  }
}
