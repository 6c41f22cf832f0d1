package dev.clrscope.cli.commands.trace;

import dev.clrscope.cli.commands.ClrscopeSubcommand;
import dev.clrscope.cli.options.FormatOption;
import dev.clrscope.cli.render.Column;
import dev.clrscope.cli.render.Table;
import dev.clrscope.cli.render.TableRenderer;
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

  @Override
  public Integer call() {
    Table t =
        new Table(
            List.of(
                Column.text("name", "PROFILE"),
                Column.text("providers", "PROVIDERS"),
                Column.text("description", "DESCRIPTION")));
    for (TraceProfile p : TraceProfile.ALL) {
      List<String> providers = new ArrayList<>();
      for (EventPipeProvider provider : p.providers()) {
        providers.add(SessionPlan.describe(provider));
      }
      String rundown =
          p.rundownKeyword() == null
              ? ""
              : " (rundown keywords 0x" + Long.toHexString(p.rundownKeyword()) + ")";
      t.add(p.name(), String.join(", ", providers), p.description() + rundown);
    }
    new TableRenderer(out()).list(t, format.format());
    return 0;
  }
}
