package dev.clrscope.cli.commands.heap;

import dev.clrscope.cli.options.TopOption;
import dev.clrscope.cli.options.TypeRegex;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** Which types a heap report shows: {@code --type REGEX} and the first {@code --top N}. */
public final class TypeSelection {
  @Spec(Spec.Target.MIXEE)
  CommandSpec mixee;

  @Mixin TopOption top;

  @Option(
      names = "--type",
      paramLabel = "REGEX",
      description = "Only types whose name contains a match of REGEX.")
  String typeFilter;

  private TypeRegex typePattern;

  /** Checks the options: a usage error names the one that is wrong. */
  void validate() {
    top.validate();
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
    return top.count();
  }
}
