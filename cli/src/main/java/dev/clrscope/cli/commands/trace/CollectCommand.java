package dev.clrscope.cli.commands.trace;

import dev.clrscope.cli.CommandFailure;
import dev.clrscope.cli.attach.AttachedTarget;
import dev.clrscope.cli.commands.AttachingCommand;
import dev.clrscope.cli.options.BufferSizeOption;
import dev.clrscope.cli.options.DurationOption;
import dev.clrscope.cli.options.DurationParser;
import dev.clrscope.cli.options.LineOptions;
import dev.clrscope.cli.options.SymbolServerOption;
import dev.clrscope.cli.options.TargetSpec;
import dev.clrscope.cli.output.OutputFile;
import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.ProgressLine;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Result;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.ipc.DiagnosticsException;
import dev.clrscope.ipc.client.ProcessInfo;
import dev.clrscope.ipc.session.EventPipeProvider;
import dev.clrscope.monitor.session.SessionResult;
import dev.clrscope.monitor.session.SessionRunner;
import dev.clrscope.monitor.session.StopSwitch;
import dev.clrscope.monitor.trace.SessionPlan;
import dev.clrscope.monitor.trace.StoppingEvent;
import dev.clrscope.monitor.trace.TraceRecording;
import dev.clrscope.nettrace.NetTraceFormatException;
import dev.clrscope.symbols.SourceLines;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code clrscope trace collect}: record an EventPipe session of a target into a nettrace file.
 *
 * <p>The bytes are written as they arrive, while a lenient parser reads the same bytes for the
 * progress line and the stopping event. However the session ends (stop, target exit, abandoned
 * rundown), the file is left valid: a stream cut off mid-block is truncated after its last complete
 * block and given its end tag.
 */
@Command(
    name = "collect",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Record a trace of a .NET process (EventPipe) into a nettrace file, until Enter, Ctrl+C,"
          + " SIGTERM, --duration, a stopping event or the target's exit. A second Ctrl+C"
          + " abandons the rundown and still leaves a valid file. Prints the file's path on"
          + " stdout."
    })
public final class CollectCommand extends AttachingCommand {
  @Option(
      names = "--providers",
      paramLabel = "PROVIDERS",
      converter = CollectOptionChecks.Providers.class,
      description =
          "Providers, comma-separated: Name[:[KeywordsHex][:[Level][:k=v;k=\"v;v\"]]]. Keywords"
              + " default to all, level to verbose (5); levels by number or name.")
  String providers;

  @Option(
      names = "--profile",
      paramLabel = "PROFILE",
      split = ",",
      converter = CollectOptionChecks.Profile.class,
      description =
          "Named provider sets, merged (`clrscope trace list-profiles`); --providers wins for a"
              + " provider both name. Default: dotnet-common,dotnet-sampled-thread-time.")
  List<String> profiles = new ArrayList<>();

  @Option(
      names = "--clrevents",
      paramLabel = "KEYWORDS",
      converter = CollectOptionChecks.ClrEvents.class,
      description = "Runtime provider keywords by name: gc+jit+exception+...")
  String clrEvents;

  @Option(
      names = "--clreventlevel",
      paramLabel = "LEVEL",
      converter = CollectOptionChecks.Level.class,
      description = "Level for --clrevents (number or name; default verbose).")
  String clrEventLevel;

  @Mixin DurationOption durationOption;

  @Mixin BufferSizeOption bufferSize;

  /** The lines of the frames of --format's conversion. */
  @Mixin LineOptions lines;

  @Mixin SymbolServerOption symbolServer;

  private SourceLines sourceLines;

  @Option(
      names = "--rundown",
      paramLabel = "true|false|KEYWORDS",
      arity = "0..1",
      fallbackValue = "true",
      description =
          "The rundown (method names for stacks) when the session stops: true (the default; the"
              + " gc-collect profile asks for a GC-only one), false, or the rundown keywords in"
              + " hex, as in dotnet-trace.")
  String rundown;

  @Option(
      names = "--buffering-mode",
      paramLabel = "Drop|Block",
      defaultValue = "Drop",
      description =
          "Drop (the default): the runtime's circular buffer drops events when full. Block:"
              + " never drop, the app's threads wait instead (.NET 11 or later; an older runtime"
              + " is an error). Also 0 or 1, as in dotnet-trace.")
  String bufferingMode = "Drop";

  @Option(names = "--no-rundown", description = "No rundown: the same as --rundown false.")
  boolean noRundown;

  @Option(
      names = "--rundown-timeout",
      paramLabel = "DURATION",
      converter = DurationParser.class,
      defaultValue = "60s",
      description =
          "How long to wait, once stopping, for the runtime to finish the rundown before"
              + " abandoning it (default: ${DEFAULT-VALUE}). The trace is valid either way; a"
              + " runtime that does not answer StopTracing (stopped or hung) is abandoned at once.")
  Duration rundownTimeout = Duration.ofSeconds(60);

  @Option(
      names = "--stopping-event-provider-name",
      paramLabel = "PROVIDER",
      description = "Stop when this provider writes an event (optionally a given one).")
  String stoppingProvider;

  @Option(
      names = "--stopping-event-event-name",
      paramLabel = "EVENT",
      description = "The stopping event's name (such as GC/Start, GCStart or an EventSource name).")
  String stoppingEventName;

  @Option(
      names = "--stopping-event-payload-filter",
      paramLabel = "FIELD:VALUE,...",
      description = "Payload fields the stopping event must have, all of them.")
  String stoppingPayloadFilter;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FILE",
      description =
          "The trace file (default: <app>_<yyyyMMdd>_<HHmmss>.nettrace in the current directory).")
  Path output;

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      defaultValue = "nettrace",
      converter = CollectOptionChecks.Format.class,
      description =
          "nettrace, or also convert it: speedscope or chromium (written beside the trace).")
  String format;

  private SessionPlan plan;
  private boolean lossless;

  /** What {@link #validate} made of the options, for the compatibility table's test. */
  SessionPlan plan() {
    return plan;
  }

  StoppingEvent stoppingEvent() {
    return stoppingEvent;
  }

  boolean lossless() {
    return lossless;
  }

  Duration duration() {
    return durationOption.duration();
  }

  dev.clrscope.cli.options.TargetOptions targetOptions() {
    return target;
  }

  private StoppingEvent stoppingEvent;

  @Override
  protected void validate() {
    sourceLines = lines.sourceLines(symbolServer.server());
    try {
      if (noRundown && rundown != null) {
        throw new IllegalArgumentException("--rundown and --no-rundown exclude each other");
      }
      Long rundownKeywords =
          noRundown ? Long.valueOf(0) : rundown == null ? null : SessionPlan.parseRundown(rundown);
      plan = SessionPlan.build(profiles, clrEvents, clrEventLevel, providers, rundownKeywords);
      stoppingEvent = StoppingEvent.of(stoppingProvider, stoppingEventName, stoppingPayloadFilter);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    switch (bufferingMode.strip().toLowerCase(Locale.ROOT)) {
      case "drop", "0" -> lossless = false;
      case "block", "1" -> lossless = true;
      default ->
          throw new ParameterException(
              spec.commandLine(),
              "--buffering-mode takes Drop or Block (or 0 or 1), got '" + bufferingMode + "'");
    }
    bufferSize.megabytes();
    // The default name is made in the current directory.
    OutputFile.check(output != null ? output : Path.of("x.nettrace"), "-o");
  }

  @Override
  protected Result run(AttachedTarget attached) {
    ConversionFormat conversion = conversionFormat();
    TargetSpec targetSpec = target.spec();
    Path file = (output != null ? output : defaultOutput(attached, targetSpec)).toAbsolutePath();
    for (String note : plan.notes()) {
      warn(note);
    }

    boolean launched = targetSpec instanceof TargetSpec.Launch;
    StopSwitch stop = new StopSwitch();
    SessionResult result;
    // The target's mappings, for naming native frames later (symbols/ProcessMaps): taken when the
    // session starts and again when it ends, if the target is still there then.
    TraceRecording.Maps maps = new TraceRecording.Maps(attached.pid());
    try (OutputStream fileOut = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16)) {
      result =
          watch(
              attached,
              // The rundown takes as long as it takes up to --rundown-timeout, unless a second
              // Ctrl+C abandons it first.
              TraceRecording.request(
                  plan,
                  bufferSize.megabytes(),
                  lossless,
                  durationOption.duration(),
                  rundownTimeout,
                  fileOut,
                  "clrscope-trace-reader"),
              stop,
              !launched,
              session -> {
                err()
                    .println(
                        "Tracing "
                            + attached.describe()
                            + " into "
                            + file
                            + " with "
                            + describeProviders(plan.providers()));
                err()
                    .println(
                        launched
                            ? "Press Ctrl+C to stop (a second Ctrl+C abandons the rundown)."
                            : "Press Enter or Ctrl+C to stop (a second Ctrl+C abandons the"
                                + " rundown).");
                maps.take();
                SessionResult recorded = record(session);
                maps.take();
                return recorded;
              },
              stoppingEvent == null ? event -> {} : stoppingEvent.consumer(stop));
    } catch (IOException e) {
      throw OutputFile.failure(file, e);
    } catch (RuntimeException e) {
      // The session never started (refused, too large a request): leave no empty file behind.
      deleteIfEmpty(file);
      throw e;
    }
    if (result.recordingError() != null) {
      throw OutputFile.failure(file, result.recordingError());
    }
    finish(file, result);
    maps.writeBeside(file);
    Path converted = null;
    if (conversion != null) {
      converted = TraceFileNames.convertedName(file, conversion);
      TraceConversion.convert(file, converted, conversion, false, sourceLines, err());
    }
    return Report.record(WRITTEN, new Written(file, converted));
  }

  /** The files a run wrote: the trace, and what it was converted to. */
  private record Written(Path trace, Path converted) {}

  /** A line each on stdout, for a script. */
  private static final RecordSchema<Written> WRITTEN =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("path", "", 0, Unit.TEXT, Written::trace),
              Field.of("convertedPath", "", 0, Unit.TEXT, Written::converted).optional()));

  private static void deleteIfEmpty(Path file) {
    try {
      if (Files.size(file) == 0) {
        Files.delete(file);
      }
    } catch (IOException e) {
      // Best effort: the failure being reported matters more.
    }
  }

  private ConversionFormat conversionFormat() {
    String f = format.strip().toLowerCase(Locale.ROOT);
    if (f.equals("nettrace")) {
      return null;
    }
    try {
      ConversionFormat c = ConversionFormat.valueOf(f);
      if (c != ConversionFormat.folded) {
        return c;
      }
    } catch (IllegalArgumentException e) {
      // Reported below.
    }
    throw new ParameterException(
        spec.commandLine(),
        "--format takes nettrace, speedscope or chromium, got '" + format + "'");
  }

  /** Runs the session to its end with a progress line; the reader thread writes the file. */
  private SessionResult record(SessionRunner session) throws InterruptedException {
    StopSwitch stop = session.stopSwitch();
    try (ProgressLine progress =
        new ProgressLine(
            err(),
            ProgressLine.stderrIsTerminal(),
            () ->
                (stop.isStopRequested() ? "Stopping: rundown " : "Recording ")
                    + Unit.duration(session.observedNanos())
                    + "  "
                    + Unit.bytes(session.bytesRead())
                    + "  "
                    + Unit.count(session.eventsRead())
                    + " events")) {
      return session.finish(
          new SessionRunner.StopProgress() {
            @Override
            public void stopping(String reason) {
              progress.note(
                  "Stopping ("
                      + reason
                      + "): waiting for the runtime's rundown; Ctrl+C again abandons it and"
                      + " still leaves a valid trace.");
            }

            @Override
            public void abandoning(String why) {
              progress.note(
                  "Abandoning the rundown ("
                      + why
                      + "): the trace keeps every event received so far.");
            }
          });
    }
  }

  private void finish(Path file, SessionResult r) {
    String size = Unit.bytes(r.bytes());
    String took = Unit.duration(r.observedNanos());
    TraceRecording.Ending ending;
    try {
      ending = TraceRecording.complete(file, r);
    } catch (TraceRecording.NothingRecorded e) {
      throw new CommandFailure(e.getMessage() + ": nothing was recorded in " + file);
    } catch (IOException e) {
      throw new CommandFailure("could not repair " + file + ": " + e.getMessage(), e);
    } catch (NetTraceFormatException e) {
      throw new CommandFailure(
          "the repaired trace " + file + " does not parse (please report it): " + e.getMessage(),
          e);
    }
    long events = ending.events();
    if (ending.repaired()) {
      long kept = ending.keptBytes();
      String what =
          r.abandoned()
              ? "Rundown abandoned"
              : !r.endedByItself()
                  ? "The stream was cut off while stopping"
                  : "The target exited or ended the session after " + took;
      err()
          .println(
              what
                  + ": "
                  + file
                  + " keeps every complete block ("
                  + Unit.bytes(kept)
                  + " of "
                  + size
                  + ", "
                  + Unit.count(events)
                  + " events"
                  + ")"
                  + (r.abandoned() || r.endedByItself()
                      ? "; method names for stacks may be missing without the rundown."
                      : "."));
      return;
    }
    if (r.endedByItself()) {
      err()
          .println(
              "The session ended (the target exited or another tool stopped it) after "
                  + took
                  + ": "
                  + file
                  + " ("
                  + size
                  + ", "
                  + Unit.count(events)
                  + " events)");
    } else {
      err()
          .println(
              "Trace complete: "
                  + file
                  + " ("
                  + size
                  + ", "
                  + Unit.count(events)
                  + " events, "
                  + took
                  + ")");
    }
  }

  private Path defaultOutput(AttachedTarget attached, TargetSpec spec) {
    String entry = null;
    List<String> commandLine = List.of();
    if (spec instanceof TargetSpec.Launch launch) {
      commandLine = launch.command();
    } else {
      try {
        ProcessInfo info = attached.client().processInfo();
        entry = info.entrypointAssembly();
        if (info.commandLine() != null) {
          commandLine = Arrays.asList(info.commandLine().strip().split("\\s+"));
        }
      } catch (DiagnosticsException e) {
        // The name is a convenience; the session itself will report a dead target.
      }
    }
    String app = TraceFileNames.appName(entry, commandLine);
    return Path.of(TraceFileNames.defaultTraceName(app, LocalDateTime.now(ZoneId.systemDefault())));
  }

  private static String describeProviders(List<EventPipeProvider> providers) {
    List<String> parts = new ArrayList<>();
    for (EventPipeProvider p : providers) {
      parts.add(SessionPlan.describe(p));
    }
    return String.join(", ", parts);
  }
}
