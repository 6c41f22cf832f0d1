package dev.clrscope.cli.commands.trace;

import dev.clrscope.cli.commands.ClrscopeSubcommand;
import dev.clrscope.cli.options.FormatOption;
import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Result;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.ipc.session.EventPipeProvider;
import dev.clrscope.monitor.trace.SessionPlan;
import dev.clrscope.monitor.trace.TraceProfile;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code clrscope trace list-profiles}: the profiles {@code --profile} takes. */
@Command(
    name = "list-profiles",
    mixinStandardHelpOptions = true,
    description = "List the profiles `trace collect --profile` takes, with their providers.")
public final class ListProfilesCommand extends ClrscopeSubcommand {
  @Mixin FormatOption format;

  /** A profile as listed. */
  private record Listed(String name, String providers, String description) {}

  private static final RecordSchema<Listed> SCHEMA =
      new RecordSchema<Listed>(
              null,
              List.of(
                  Field.of("name", "PROFILE", 0, Unit.TEXT, Listed::name),
                  Field.of("providers", "PROVIDERS", 0, Unit.TEXT, Listed::providers),
                  Field.of("description", "DESCRIPTION", 0, Unit.TEXT, Listed::description)))
          .withPriority(List.of("name", "description", "providers"));

  @Override
  protected Result run() {
    List<Listed> rows = new ArrayList<>();
    for (TraceProfile p : TraceProfile.ALL) {
      List<String> providers = new ArrayList<>();
      for (EventPipeProvider provider : p.providers()) {
        providers.add(SessionPlan.describe(provider));
      }
      String rundown =
          p.rundownKeyword() == null
              ? ""
              : " (rundown keywords " + Unit.address(p.rundownKeyword()) + ")";
      rows.add(new Listed(p.name(), String.join(", ", providers), p.description() + rundown));
    }
    return Report.table(SCHEMA, rows);
  }
}
