package dev.clrscope.cli.commands.trace;

import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code clrscope trace report FILE topN}: reports on a saved trace, in dotnet-trace's syntax (the
 * file before the report's name; after it works too).
 */
@Command(
    name = "report",
    mixinStandardHelpOptions = true,
    description = "Report on a saved trace: `trace report FILE topN` (as dotnet-trace spells it).",
    subcommands = {TopNCommand.class})
public final class ReportCommand implements Runnable {
  @Spec CommandSpec spec;

  @Parameters(index = "0", arity = "0..1", paramLabel = "FILE", description = "The nettrace file.")
  Path input;

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "choose a report: topN");
  }
}
