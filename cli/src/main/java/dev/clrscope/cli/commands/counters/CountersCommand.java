package dev.clrscope.cli.commands.counters;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code clrscope counters}: EventCounters and System.Diagnostics.Metrics, live and recorded. */
@Command(
    name = "counters",
    mixinStandardHelpOptions = true,
    versionProvider = dev.clrscope.cli.ClrscopeVersion.class,
    description = {
      "Watch a process's counters: its Meters (System.Diagnostics.Metrics) and its EventSources'"
          + " EventCounters. The default is System.Runtime."
    },
    subcommands = {MonitorCommand.class, CollectCountersCommand.class, ListCountersCommand.class})
public final class CountersCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "choose monitor, collect or list");
  }
}
