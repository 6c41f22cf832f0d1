package dev.clrscope.cli.commands.contention;

import dev.clrscope.cli.attach.AttachedTarget;
import dev.clrscope.cli.commands.AttachingCommand;
import dev.clrscope.cli.options.DurationOption;
import dev.clrscope.cli.options.DurationParser;
import dev.clrscope.cli.options.LineOptions;
import dev.clrscope.cli.options.StreamFormatOption;
import dev.clrscope.cli.options.SymbolServerOption;
import dev.clrscope.cli.render.Records;
import dev.clrscope.cli.render.Result;
import dev.clrscope.monitor.contention.ContentionAssembler;
import dev.clrscope.monitor.methods.MethodAddressMap;
import dev.clrscope.monitor.session.SessionResult;
import dev.clrscope.symbols.ProcessMaps;
import dev.clrscope.symbols.SourceLines;
import java.nio.file.Path;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code clrscope contention}: every time a thread blocks on a lock or a wait handle. */
@Command(
    name = "contention",
    mixinStandardHelpOptions = true,
    description = {
      "Watch where a process's threads block: one row per contended lock (Monitor and"
          + " System.Threading.Lock: duration, the owner thread, the waiting method) and per wait on"
          + " a wait handle (.NET 9+), --stacks adds the waiting stack; and a summary when it stops"
          + " (Ctrl+C, Enter, --duration, or the target exiting): per waiting method (or stack)"
          + " the count, total blocked time, p50, p95 and max. Give FILE.nettrace instead of a"
          + " target to read a saved trace (recorded with the Contention and WaitHandle keywords)."
    })
public final class ContentionCommand extends AttachingCommand {
  @Mixin StreamFormatOption format;

  @Mixin DurationOption durationOption;

  @Mixin LineOptions lines;

  @Mixin SymbolServerOption symbolServer;

  private SourceLines sourceLines;

  @Option(
      names = "--min-duration",
      paramLabel = "DURATION",
      converter = DurationParser.class,
      description =
          "Leave out shorter waits, from the rows and the summary: 10ms, 1s... (default: none).")
  Duration minDuration = Duration.ZERO;

  @Option(
      names = "--stacks",
      description = "Print each wait's stack, and sum the summary up per stack, not per method.")
  boolean stacks;

  @Override
  protected void validate() {
    sourceLines = lines.sourceLines(symbolServer.server());
  }

  @Override
  protected boolean readsFiles() {
    return true;
  }

  /** A saved trace: every row named as the summary is, from the whole trace. */
  @Override
  protected Result readFile(Path file) {
    return Records.of(
        ContentionOutput.stream(stacks),
        sink -> {
          // One pass: the rows are held until the trace's rundown, at its end, has named their
          // frames.
          MethodAddressMap methods =
              new MethodAddressMap(ProcessMaps.forTrace(file)).withLines(sourceLines);
          ContentionAssembler assembler =
              new ContentionAssembler(methods, minDuration, stacks, sink::write).namesAtEnd();
          long span = analyseSavedTrace(file, assembler);
          methods.problems().forEach(this::warn);
          return ContentionOutput.summaryReport(assembler.summary(span), null);
        });
  }

  @Override
  protected Result run(AttachedTarget attached) {
    return Records.of(
        ContentionOutput.stream(stacks),
        sink -> {
          MethodAddressMap methods =
              new MethodAddressMap(ProcessMaps.ofProcess(attached.pid())).withLines(sourceLines);
          ContentionAssembler assembler =
              new ContentionAssembler(methods, minDuration, stacks, sink::write);
          SessionResult result =
              watchMonitor(
                  attached,
                  namedFromTheStart(
                      ContentionAssembler.sessionRequest(true, sourceLines != null)
                          .withDuration(durationOption.duration()),
                      methods,
                      attached),
                  "the locks and waits",
                  sink::start,
                  "some waits are missing",
                  assembler);
          methods.problems().forEach(this::warn);
          return ContentionOutput.summaryReport(
              assembler.summary(result.observedNanos()), result.stopReason());
        });
  }
}
