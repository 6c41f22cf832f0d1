package dev.clrscope.cli.commands.trace;

import dev.clrscope.cli.CommandFailure;
import dev.clrscope.cli.attach.AttachedTarget;
import dev.clrscope.cli.commands.AttachingCommand;
import dev.clrscope.cli.options.DurationOption;
import dev.clrscope.cli.options.TargetSpec;
import dev.clrscope.cli.session.StopSignals;
import dev.clrscope.ipc.DiagnosticsException;
import dev.clrscope.ipc.client.ProcessInfo;
import dev.clrscope.ipc.session.EventPipeProvider;
import dev.clrscope.ipc.session.EventPipeSession;
import dev.clrscope.monitor.trace.SessionPlan;
import dev.clrscope.monitor.trace.StoppingEvent;
import dev.clrscope.nettrace.NetTraceFormatException;
import dev.clrscope.nettrace.NetTraceReader;
import dev.clrscope.nettrace.TraceEvent;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
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
  private static final Duration FOREVER = Duration.ofDays(3650);

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

  @Option(
      names = "--buffersize",
      paramLabel = "MB",
      defaultValue = "256",
      description = "The runtime's buffer for this session, in MB (default: ${DEFAULT-VALUE}).")
  int bufferSizeMb;

  @Option(
      names = "--rundown",
      negatable = true,
      description =
          "Ask for the rundown (method names for stacks) when the session stops (default: yes;"
              + " the gc-collect profile asks for a GC-only rundown).")
  Boolean rundown;

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
  private StoppingEvent stoppingEvent;

  @Override
  protected void validate() {
    try {
      plan = SessionPlan.build(profiles, clrEvents, clrEventLevel, providers, rundown);
      stoppingEvent = StoppingEvent.of(stoppingProvider, stoppingEventName, stoppingPayloadFilter);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    if (bufferSizeMb <= 0) {
      throw new ParameterException(
          spec.commandLine(), "--buffersize must be a positive number of MB, got " + bufferSizeMb);
    }
  }

  @Override
  protected int run(AttachedTarget attached) {
    ConversionFormat conversion = conversionFormat();
    TargetSpec targetSpec = target.spec();
    Path file = (output != null ? output : defaultOutput(attached, targetSpec)).toAbsolutePath();
    Path dir = file.getParent();
    if (dir != null && !Files.isDirectory(dir)) {
      throw new CommandFailure("the directory " + dir + " does not exist: create it or choose -o");
    }
    for (String note : plan.notes()) {
      warn(note);
    }

    EventPipeSession session = attached.client().startEventPipeSession(plan.toConfig(bufferSizeMb));
    Recording recording;
    boolean launched = targetSpec instanceof TargetSpec.Launch;
    try (OutputStream fileOut = new BufferedOutputStream(Files.newOutputStream(file), 1 << 16);
        StopSignals signals = StopSignals.install(durationOption.duration(), !launched)) {
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
                  : "Press Enter or Ctrl+C to stop (a second Ctrl+C abandons the rundown).");
      // The session exists: a runtime waiting at startup may now run, and its first events are
      // in the trace.
      attached.release();
      recording = record(session, fileOut, signals, stoppingEvent);
    } catch (IOException e) {
      throw new CommandFailure("could not write " + file + ": " + e.getMessage(), e);
    } finally {
      closeSession(session);
    }
    finish(file, recording);
    out().println(file);
    if (conversion != null) {
      Path converted = TraceFileNames.convertedName(file, conversion);
      TraceConversion.convert(file, converted, conversion, err());
      out().println(converted);
    }
    out().flush();
    return 0;
  }

  /**
   * Ends the session. A session whose stream has ended needs no StopTracing: its runtime may be
   * gone, and asking a vanished runtime on a diagnostic port would wait for a connection that never
   * comes.
   */
  private static void closeSession(EventPipeSession session) {
    if (session.isStopRequested()) {
      session.close();
      return;
    }
    try {
      session.stream().close();
    } catch (IOException e) {
      // Closing is best effort: the trace file is what matters.
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

  /**
   * What happened during the recording.
   *
   * @param bytes bytes received
   * @param events events parsed
   * @param millis how long it ran
   * @param tracker the framing as received
   * @param stopReason why a stop was asked for, or null when the session ended by itself
   * @param abandoned whether the rundown was abandoned
   * @param sessionError why reading the session failed, or null
   */
  private record Recording(
      long bytes,
      long events,
      long millis,
      BlockBoundaryTracker tracker,
      String stopReason,
      boolean abandoned,
      IOException sessionError) {}

  private Recording record(
      EventPipeSession session, OutputStream fileOut, StopSignals signals, StoppingEvent stopping)
      throws IOException {
    BlockBoundaryTracker tracker = new BlockBoundaryTracker();
    RecordingInputStream in = new RecordingInputStream(session.stream(), fileOut, tracker);
    AtomicLong events = new AtomicLong();
    long start = System.nanoTime();
    boolean[] abandoned = {false};
    ProgressLine[] progressHolder = new ProgressLine[1];
    Thread stopper =
        new Thread(
            () -> {
              try {
                signals.awaitStop(FOREVER);
                progressHolder[0].note(
                    "Stopping ("
                        + signals.reason()
                        + "): waiting for the runtime's rundown; Ctrl+C again abandons it and"
                        + " still leaves a valid trace.");
                session.stop();
                if (signals.awaitAbandon(FOREVER)) {
                  abandoned[0] = true;
                  progressHolder[0].note("Abandoning the rundown.");
                  // Closing the connection ends the blocked read with end-of-stream.
                  session.close();
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "clrscope-trace-stop");
    stopper.setDaemon(true);
    try (ProgressLine progress =
        new ProgressLine(
            err(),
            ProgressLine.stderrIsTerminal(),
            () ->
                (signals.isStopRequested() ? "Stopping: rundown " : "Recording ")
                    + ProgressLine.elapsed((System.nanoTime() - start) / 1_000_000)
                    + "  "
                    + ProgressLine.bytes(in.bytes())
                    + "  "
                    + String.format(Locale.ROOT, "%,d events", events.get()))) {
      progressHolder[0] = progress;
      stopper.start();
      boolean stoppingSeen = false;
      try (NetTraceReader reader = NetTraceReader.open(in, true)) {
        TraceEvent e;
        while ((e = reader.next()) != null) {
          events.incrementAndGet();
          if (stopping != null && !stoppingSeen && stopping.matches(e)) {
            stoppingSeen = true;
            signals.request("stopping event " + stopping.describe() + " seen");
          }
        }
      } catch (NetTraceFormatException | UncheckedIOException e) {
        // A header cut short or a stream error: the framing tracker decides what is kept.
      }
      if (in.fileError() != null) {
        throw in.fileError();
      }
      in.drain();
      if (in.fileError() != null) {
        throw in.fileError();
      }
    }
    String stopReason = signals.isStopRequested() ? signals.reason() : null;
    return new Recording(
        in.bytes(),
        events.get(),
        (System.nanoTime() - start) / 1_000_000,
        tracker,
        stopReason,
        abandoned[0],
        in.sessionError());
  }

  private void finish(Path file, Recording r) {
    BlockBoundaryTracker t = r.tracker();
    String size = ProgressLine.bytes(r.bytes());
    String took = ProgressLine.elapsed(r.millis());
    long events = r.events();
    if (!t.hasEnded()) {
      if (!t.hasHeader()) {
        throw new CommandFailure(
            "the session ended before the runtime sent the trace header"
                + (r.sessionError() != null ? " (" + r.sessionError().getMessage() + ")" : "")
                + ": nothing was recorded in "
                + file);
      }
      if (!t.isUnderstood()) {
        warn(
            "the stream's framing was not NetTrace V4/V5, so a cut-off end could not be repaired;"
                + " "
                + file
                + " is exactly what was received");
      } else {
        try {
          TraceFileRepair.endAt(file, t.lastCompleteObjectEnd());
          events = TraceFileRepair.verify(file);
        } catch (IOException e) {
          throw new CommandFailure("could not repair " + file + ": " + e.getMessage(), e);
        } catch (NetTraceFormatException e) {
          throw new CommandFailure(
              "the repaired trace "
                  + file
                  + " does not parse (please report it): "
                  + e.getMessage(),
              e);
        }
        long kept = t.lastCompleteObjectEnd() + 1;
        String what =
            r.abandoned()
                ? "Rundown abandoned"
                : r.stopReason() != null
                    ? "The stream was cut off while stopping"
                    : "The target exited or ended the session after " + took;
        err()
            .println(
                what
                    + ": "
                    + file
                    + " keeps every complete block ("
                    + ProgressLine.bytes(kept)
                    + " of "
                    + size
                    + String.format(Locale.ROOT, ", %,d events", events)
                    + ")"
                    + (r.abandoned() || r.stopReason() == null
                        ? "; method names for stacks may be missing without the rundown."
                        : "."));
        return;
      }
    }
    if (r.stopReason() == null) {
      err()
          .println(
              "The session ended (the target exited or another tool stopped it) after "
                  + took
                  + ": "
                  + file
                  + String.format(Locale.ROOT, " (%s, %,d events)", size, events));
    } else {
      err()
          .println(
              "Trace complete: "
                  + file
                  + String.format(Locale.ROOT, " (%s, %,d events, %s)", size, events, took));
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
