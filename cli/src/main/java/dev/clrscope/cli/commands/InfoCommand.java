package dev.clrscope.cli.commands;

import dev.clrscope.cli.attach.AttachedTarget;
import dev.clrscope.cli.options.FormatOption;
import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Result;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.ipc.client.ProcessInfo;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code clrscope info}: everything the runtime says about its process. */
@Command(
    name = "info",
    mixinStandardHelpOptions = true,
    description = "Show what a runtime reports about its process (ProcessInfo3, or older).")
public final class InfoCommand extends AttachingCommand {
  @Mixin FormatOption format;

  /** What the runtime said, and where it was asked. */
  private record Answer(ProcessInfo info, String endpoint) {}

  private static final RecordSchema<Answer> SCHEMA =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("pid", "Process ID", 0, Unit.ID, (Answer a) -> a.info().pid()),
              Field.of(
                  "commandLine",
                  "Command line",
                  0,
                  Unit.TEXT,
                  (Answer a) -> a.info().commandLine()),
              Field.of("os", "OS", 0, Unit.TEXT, (Answer a) -> a.info().os()),
              Field.of("arch", "Architecture", 0, Unit.TEXT, (Answer a) -> a.info().arch()),
              Field.of(
                  "runtimeIdentifier",
                  "Runtime identifier",
                  0,
                  Unit.TEXT,
                  (Answer a) -> a.info().runtimeIdentifier()),
              Field.of(
                  "entrypointAssembly",
                  "Entry assembly",
                  0,
                  Unit.TEXT,
                  (Answer a) -> a.info().entrypointAssembly()),
              Field.of(
                  "runtimeVersion",
                  "Runtime version",
                  0,
                  Unit.TEXT,
                  (Answer a) -> a.info().clrProductVersion()),
              Field.of(
                  "runtimeCookie",
                  "Runtime cookie",
                  0,
                  Unit.TEXT,
                  (Answer a) -> a.info().runtimeCookie().toString()),
              Field.of("endpoint", "Endpoint", 0, Unit.TEXT, Answer::endpoint),
              Field.of(
                  "protocolCommand",
                  "Answered by",
                  0,
                  Unit.TEXT,
                  (Answer a) -> a.info().answeredBy().describe())));

  @Override
  protected Result run(AttachedTarget attached) {
    ProcessInfo info = attached.client().processInfo();
    return Report.record(SCHEMA, new Answer(info, String.valueOf(attached.endpoint())));
  }
}
