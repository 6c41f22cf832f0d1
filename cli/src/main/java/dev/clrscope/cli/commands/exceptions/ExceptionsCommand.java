package dev.clrscope.cli.commands.exceptions;

import dev.clrscope.cli.attach.AttachedTarget;
import dev.clrscope.cli.commands.AttachingCommand;
import dev.clrscope.cli.options.DurationOption;
import dev.clrscope.cli.options.LineOptions;
import dev.clrscope.cli.options.StreamFormatOption;
import dev.clrscope.cli.options.SymbolServerOption;
import dev.clrscope.cli.options.TypeRegex;
import dev.clrscope.cli.render.Records;
import dev.clrscope.cli.render.Result;
import dev.clrscope.monitor.exceptions.ExceptionAssembler;
import dev.clrscope.monitor.exceptions.ExceptionRecord;
import dev.clrscope.monitor.methods.MethodAddressMap;
import dev.clrscope.monitor.session.SessionResult;
import dev.clrscope.symbols.ProcessMaps;
import dev.clrscope.symbols.SourceLines;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code clrscope exceptions}: every exception a process throws, as it is thrown, and a summary.
 */
@Command(
    name = "exceptions",
    mixinStandardHelpOptions = true,
    description = {
      "Watch the exceptions a process throws: one row per exception (time, thread, type, the"
          + " method that threw it, caught or not, message; --stacks adds the call stack), and a"
          + " summary when it stops (Ctrl+C, Enter, --duration, or the target exiting): counts by"
          + " type and throw site, exceptions per second. Give FILE.nettrace instead of a target"
          + " to read a saved trace (one recorded with the Exception keyword, such as `trace"
          + " collect --clrevents exception+jit`)."
    })
public final class ExceptionsCommand extends AttachingCommand {
  @Mixin StreamFormatOption format;

  @Mixin DurationOption durationOption;

  @Mixin LineOptions lines;

  @Mixin SymbolServerOption symbolServer;

  private SourceLines sourceLines;

  @Option(
      names = "--type",
      paramLabel = "REGEX",
      description = "Only exceptions whose type name contains a match of REGEX.")
  String type;

  @Option(names = "--stacks", description = "Print each exception's call stack.")
  boolean stacks;

  private TypeRegex typePattern;

  @Override
  protected void validate() {
    sourceLines = lines.sourceLines(symbolServer.server());
    typePattern = type == null ? null : TypeRegex.compile(spec, type);
  }

  @Override
  protected boolean readsFiles() {
    return true;
  }

  private ExceptionAssembler assembler(
      MethodAddressMap methods, Records.Sink<ExceptionRecord> sink) {
    return new ExceptionAssembler(
        methods, t -> typePattern == null || typePattern.test(t), stacks, sink::write);
  }

  /** A saved trace: every row named as the summary is, from the whole trace. */
  @Override
  protected Result readFile(Path file) {
    return Records.of(
        ExceptionsOutput.stream(stacks),
        sink -> {
          // One pass: the rows are held until the trace's rundown, at its end, has named their
          // frames.
          MethodAddressMap methods =
              new MethodAddressMap(ProcessMaps.forTrace(file)).withLines(sourceLines);
          ExceptionAssembler assembler = assembler(methods, sink).namesAtEnd();
          long span = analyseSavedTrace(file, assembler);
          methods.problems().forEach(this::warn);
          return ExceptionsOutput.summaryReport(assembler.summary(span), null);
        });
  }

  @Override
  protected Result run(AttachedTarget attached) {
    return Records.of(
        ExceptionsOutput.stream(stacks),
        sink -> {
          MethodAddressMap methods =
              new MethodAddressMap(ProcessMaps.ofProcess(attached.pid())).withLines(sourceLines);
          ExceptionAssembler assembler = assembler(methods, sink);
          SessionResult result =
              watchMonitor(
                  attached,
                  namedFromTheStart(
                      ExceptionAssembler.sessionRequest(true, sourceLines != null)
                          .withDuration(durationOption.duration()),
                      methods,
                      attached),
                  "the exceptions",
                  sink::start,
                  "some exceptions are missing",
                  assembler);
          methods.problems().forEach(this::warn);
          return ExceptionsOutput.summaryReport(
              assembler.summary(result.observedNanos()), result.stopReason());
        });
  }
}
