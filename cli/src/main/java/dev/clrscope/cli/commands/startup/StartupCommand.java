package dev.clrscope.cli.commands.startup;

import dev.clrscope.cli.attach.AttachedTarget;
import dev.clrscope.cli.commands.AttachingCommand;
import dev.clrscope.cli.options.DurationOption;
import dev.clrscope.cli.options.OptionDefaults;
import dev.clrscope.cli.options.StreamFormatOption;
import dev.clrscope.cli.options.TargetSpec;
import dev.clrscope.cli.render.MonitorOutput;
import dev.clrscope.monitor.session.SessionResult;
import dev.clrscope.monitor.startup.StartupAssembler;
import dev.clrscope.monitor.startup.StartupRecord;
import dev.clrscope.monitor.startup.StartupSummary;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/** {@code clrscope startup}: a process's time line from the runtime's start to Main and beyond. */
@Command(
    name = "startup",
    mixinStandardHelpOptions = true,
    description = {
      "Watch a process start: launch it (-- COMMAND) or take a runtime that waits at startup"
          + " (--diagnostic-port), and print its time line from the start of the runtime to Main"
          + " and on, until it exits or --duration runs out (a launched app still running is"
          + " then ended): assembly loads (name, time, duration, path), GCs, the moment Main is"
          + " reached, with --all every method compiled and type loaded; and a summary: time to"
          + " Main, per kind the count and time spent, the slowest items. Exits with the launched"
          + " app's exit code. Give FILE.nettrace instead of a target to read a saved trace."
    })
public final class StartupCommand extends AttachingCommand implements OptionDefaults.Own {
  /** How long a start is watched when no --duration is given. */
  @Override
  public String defaultFor(String option) {
    return option.equals("--duration") ? "10s" : null;
  }

  @Mixin StreamFormatOption format;

  @Mixin DurationOption durationOption;

  @Option(
      names = "--all",
      description =
          "A row for every method compiled and every type loaded too (there are thousands).")
  boolean all;

  @Option(
      names = "--top",
      paramLabel = "N",
      description = "How many of the slowest items of each kind the summary lists (default: 10).")
  int top = 10;

  @Override
  protected void validate() {
    if (top < 0 || top > 1000) {
      throw new ParameterException(spec.commandLine(), "--top takes 0 to 1000, got " + top);
    }
    if (target.isChosen() && target.inputFile() == null) {
      TargetSpec chosen = target.spec();
      if (chosen instanceof TargetSpec.ByPid || chosen instanceof TargetSpec.ByName) {
        throw new ParameterException(
            spec.commandLine(),
            "startup watches a process from its start: launch it with -- COMMAND, or give"
                + " --diagnostic-port for a runtime that waits at startup (DOTNET_DiagnosticPorts)");
      }
    }
  }

  @Override
  protected boolean readsFiles() {
    return true;
  }

  @Override
  protected int readFile(Path file) {
    MonitorOutput<StartupRecord, StartupSummary> output =
        StartupOutput.output(format.renderer(out(), err()));
    StartupAssembler assembler = new StartupAssembler(all, top, output::write);
    return analyseSavedTrace(
        file, assembler, span -> output.summary(assembler.summary(span), null));
  }

  @Override
  protected int run(AttachedTarget attached) {
    Duration window = durationOption.duration();
    MonitorOutput<StartupRecord, StartupSummary> output =
        StartupOutput.output(format.renderer(out(), err()));
    StartupAssembler assembler = new StartupAssembler(all, top, output::write);
    SessionResult result =
        watchMonitor(
            attached,
            StartupAssembler.sessionRequest().withDuration(window),
            "the start",
            output::header,
            "some items are missing",
            assembler);
    output.summary(
        assembler.summary(result.observedNanos(), attached.launchClock()), result.stopReason());
    return 0;
  }
}
