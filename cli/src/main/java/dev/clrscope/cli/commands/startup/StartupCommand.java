package dev.clrscope.cli.commands.startup;

import dev.clrscope.cli.attach.AttachedTarget;
import dev.clrscope.cli.commands.AttachingCommand;
import dev.clrscope.cli.options.DurationOption;
import dev.clrscope.cli.options.OptionDefaults;
import dev.clrscope.cli.options.StreamFormatOption;
import dev.clrscope.cli.options.TargetSpec;
import dev.clrscope.cli.options.TopOption;
import dev.clrscope.cli.render.Records;
import dev.clrscope.cli.render.Result;
import dev.clrscope.monitor.session.SessionResult;
import dev.clrscope.monitor.startup.StartupAssembler;
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

  /** How many of the slowest items of each kind the summary lists. */
  @Mixin TopOption top;

  @Override
  protected void validate() {
    top.validate();
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
  protected Result readFile(Path file) {
    return Records.of(
        StartupOutput.stream(),
        sink -> {
          StartupAssembler assembler = new StartupAssembler(all, top.count(), sink::write);
          long span = analyseSavedTrace(file, assembler);
          return StartupOutput.summaryReport(assembler.summary(span), null);
        });
  }

  @Override
  protected Result run(AttachedTarget attached) {
    Duration window = durationOption.duration();
    return Records.of(
        StartupOutput.stream(),
        sink -> {
          StartupAssembler assembler = new StartupAssembler(all, top.count(), sink::write);
          SessionResult result =
              watchMonitor(
                  attached,
                  StartupAssembler.sessionRequest().withDuration(window),
                  "the start",
                  sink::start,
                  "some items are missing",
                  assembler);
          return StartupOutput.summaryReport(
              assembler.summary(result.observedNanos(), attached.launchClock()),
              result.stopReason());
        });
  }
}
