package dev.clrscope.cli.commands;

import dev.clrscope.cli.ClrscopeVersion;
import dev.clrscope.cli.options.LoggingOptions;
import dev.clrscope.cli.options.OptionDefaults;
import java.io.PrintStream;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * The small base of every subcommand: data goes to {@link #out()}, progress and warnings to {@link
 * #err()}, and {@link #call()} returns the exit code. Every subcommand inherits {@code --help},
 * {@code --version}, {@code -v/--verbose} and {@code --log-file} from here.
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

  /** Where data goes. */
  protected PrintStream out() {
    return System.out;
  }

  /** Where progress, warnings and notes go. */
  protected PrintStream err() {
    return System.err;
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
