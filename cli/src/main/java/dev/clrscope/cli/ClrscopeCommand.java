package dev.clrscope.cli;

import dev.clrscope.cli.commands.DumpCommand;
import dev.clrscope.cli.commands.EnvCommand;
import dev.clrscope.cli.commands.InfoCommand;
import dev.clrscope.cli.commands.PerfMapCommand;
import dev.clrscope.cli.commands.PsCommand;
import dev.clrscope.cli.commands.TrainCommand;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** The top-level {@code clrscope} command: it only dispatches to subcommands. */
@Command(
    name = "clrscope",
    mixinStandardHelpOptions = true,
    versionProvider = ClrscopeVersion.class,
    description = "Diagnose live .NET processes: list, inspect, dump, trace.",
    subcommands = {
      PsCommand.class,
      InfoCommand.class,
      EnvCommand.class,
      DumpCommand.class,
      PerfMapCommand.class,
      AutoComplete.GenerateCompletion.class,
      dev.clrscope.cli.commands.GcStatsCommand.class,
      dev.clrscope.cli.commands.FullGcCommand.class,
      dev.clrscope.cli.commands.trace.TraceCommand.class,
      dev.clrscope.cli.commands.counters.CountersCommand.class,
      TrainCommand.class
    },
    footer = {
      "",
      "Exit codes: 0 success, 1 target or environment error, 2 usage error, 70 internal error.",
      "Commands that attach take -- COMMAND [ARGS] to launch a .NET app under clrscope;",
      "clrscope then exits with the app's exit code."
    })
public final class ClrscopeCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "choose a command");
  }
}
