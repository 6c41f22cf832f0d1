package dev.clrscope.cli.options;

import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** {@code --type REGEX}, as the heap reports and the exceptions monitor take it. */
public final class TypeRegex {
  private TypeRegex() {}

  /** The regular expression, or a usage error that says what is wrong with it. */
  public static Pattern compile(CommandSpec spec, String regex) {
    try {
      return Pattern.compile(regex);
    } catch (PatternSyntaxException e) {
      throw new ParameterException(
          spec.commandLine(), "--type is not a regular expression: " + e.getDescription());
    }
  }
}
