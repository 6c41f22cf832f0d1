package dev.clrscope.cli.options;

import picocli.CommandLine.IDefaultValueProvider;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.OptionSpec;

/**
 * The default of a shared option that differs by command ({@code --duration} of {@code startup},
 * {@code --refresh-interval} of {@code serve}, {@code --buffersize} of the heap commands), kept in
 * picocli's model: the help's {@code ${DEFAULT-VALUE}} and the value a run gets are the same
 * string, so they cannot drift apart. Every subcommand has this provider; a command with its own
 * defaults implements {@link Own}.
 */
public final class OptionDefaults implements IDefaultValueProvider {
  /** A command that gives some options a default of its own. */
  public interface Own {
    /**
     * The default of the option named {@code longestName} ({@code --duration}) for this command, as
     * the command line would spell it, or {@code null} for the option's own.
     */
    String defaultFor(String longestName);
  }

  @Override
  public String defaultValue(ArgSpec arg) {
    if (arg instanceof OptionSpec option
        && arg.command() != null
        && arg.command().userObject() instanceof Own own) {
      return own.defaultFor(option.longestName());
    }
    return null;
  }
}
