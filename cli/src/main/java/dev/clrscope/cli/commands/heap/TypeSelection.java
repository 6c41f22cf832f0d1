package dev.clrscope.cli.commands.heap;

import dev.clrscope.cli.options.TypeRegex;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** Which types a heap report shows: {@code --type REGEX} and the first {@code --top N}. */
public final class TypeSelection {
  @Spec(Spec.Target.MIXEE)
  CommandSpec mixee;

  @Option(
      names = "--top",
      paramLabel = "N",
      defaultValue = "30",
      description = "Show the first N types (default: ${DEFAULT-VALUE}; 0 for all).")
  int top = 30;

  @Option(
      names = "--type",
      paramLabel = "REGEX",
      description = "Only types whose name contains a match of REGEX.")
  String typeFilter;

  private TypeRegex typePattern;

  /** Checks the options: a usage error names the one that is wrong. */
  void validate() {
    if (top < 0) {
      throw new ParameterException(mixee.commandLine(), "--top takes 0 or more, got " + top);
    }
    if (typeFilter != null) {
      typePattern = TypeRegex.compile(mixee, typeFilter);
    }
  }

  /** Whether {@code type} is one {@code --type} asks for. */
  boolean matches(String type) {
    return typePattern == null || typePattern.test(type);
  }

  /** How many rows at most. */
  long limit() {
    return top == 0 ? Long.MAX_VALUE : top;
  }
}
