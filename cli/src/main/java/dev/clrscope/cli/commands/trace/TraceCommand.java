package dev.clrscope.cli.commands.trace;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code clrscope trace}: record EventPipe traces and read nettrace files. */
@Command(
    name = "trace",
    mixinStandardHelpOptions = true,
    versionProvider = dev.clrscope.cli.ClrscopeVersion.class,
    description = "Record EventPipe traces of .NET processes and read nettrace files.",
    subcommands = {
      CollectCommand.class,
      ConvertCommand.class,
      StatsCommand.class,
      EventsCommand.class,
      ReportCommand.class,
      ListProfilesCommand.class
    })
public final class TraceCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(
        spec.commandLine(),
        "choose a command: collect, convert, stats, events, report or list-profiles");
  }
}
