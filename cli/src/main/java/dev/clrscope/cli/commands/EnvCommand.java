package dev.clrscope.cli.commands;

import dev.clrscope.cli.attach.AttachedTarget;
import dev.clrscope.cli.options.FormatOption;
import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Result;
import dev.clrscope.cli.render.Unit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** {@code clrscope env}: list the target's environment, or set variables in it. */
@Command(
    name = "env",
    mixinStandardHelpOptions = true,
    description = {
      "List the target's environment as the runtime sees it now, or set variables in it.",
      "Variables set with --set are seen by the app's later Environment.GetEnvironmentVariable"
          + " calls and by the processes it starts."
    })
public final class EnvCommand extends AttachingCommand {
  @Mixin FormatOption format;

  @Option(
      names = "--set",
      paramLabel = "NAME=VALUE",
      description = "Set a variable in the target (repeatable) instead of listing.")
  List<String> assignments = new ArrayList<>();

  /** A variable: JSON draws the listing as one object, each name to its value. */
  private static final RecordSchema<Map.Entry<String, String>> SCHEMA =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("name", "NAME", 0, Unit.TEXT, Map.Entry::getKey),
              Field.of("value", "VALUE", 0, Unit.TEXT, Map.Entry::getValue)));

  @Override
  protected Result run(AttachedTarget attached) {
    if (!assignments.isEmpty()) {
      for (String a : assignments) {
        int eq = a.indexOf('=');
        if (eq <= 0) {
          throw new ParameterException(
              spec.commandLine(), "--set takes NAME=VALUE, got '" + a + "'");
        }
        attached.client().setEnvironmentVariable(a.substring(0, eq), a.substring(eq + 1));
        err().println("Set " + a.substring(0, eq) + " in " + attached.describe());
      }
      return Result.done();
    }
    Map<String, String> sorted = new TreeMap<>();
    for (String entry : attached.client().environment()) {
      int eq = entry.indexOf('=', entry.startsWith("=") ? 1 : 0);
      if (eq < 0) {
        sorted.put(entry, "");
      } else {
        sorted.put(entry.substring(0, eq), entry.substring(eq + 1));
      }
    }
    return Report.builder().mapRows(null, null, SCHEMA, List.copyOf(sorted.entrySet())).build();
  }
}
