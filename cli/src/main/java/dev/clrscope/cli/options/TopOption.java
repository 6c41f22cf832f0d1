package dev.clrscope.cli.options;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code --top N}: how many rows of each ranked list a command shows, the same name and default in
 * every command (SOS's own spellings, {@code -top} and {@code -max}, stay inside {@code analyze}).
 */
public final class TopOption {
  /** The default of every command's {@code --top}. */
  public static final int DEFAULT = 10;

  @Spec(Spec.Target.MIXEE)
  CommandSpec mixee;

  @Option(
      names = "--top",
      paramLabel = "N",
      defaultValue = "10",
      description = "At most N rows of each ranked list (default: ${DEFAULT-VALUE}; 0 for all).")
  int top = DEFAULT;

  /** Checks the value: a usage error says what {@code --top} takes. */
  public void validate() {
    check(mixee, "--top", top);
  }

  /** How many rows at most: {@link Integer#MAX_VALUE} for all. */
  public int count() {
    return count(top);
  }

  /** {@code n} as a row limit: 0 is all. */
  public static int count(int n) {
    return n == 0 ? Integer.MAX_VALUE : n;
  }

  /** A usage error unless {@code n} is 0 (all) or more. */
  public static void check(CommandSpec spec, String option, int n) {
    if (n < 0) {
      throw new ParameterException(spec.commandLine(), option + " takes 0 (all) or more, got " + n);
    }
  }
}
