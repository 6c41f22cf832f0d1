package dev.clrscope.cli.commands.trace;

import dev.clrscope.cli.commands.ClrscopeSubcommand;
import dev.clrscope.cli.render.OutputFormat;
import dev.clrscope.cli.options.StreamFormatOption;
import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.Field.Shown;
import dev.clrscope.cli.render.JsonText;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Renderer;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.monitor.session.SessionResult;
import dev.clrscope.monitor.session.StopSwitch;
import dev.clrscope.monitor.trace.EventNames;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;

/** {@code clrscope trace events}: a trace's events, decoded. */
@Command(
    name = "events",
    mixinStandardHelpOptions = true,
    description = {
      "Print a trace's events in time order with their payload fields by name: one JSON object a"
          + " line (JSON Lines), one JSON document, a table line or a CSV line each."
    })
public final class EventsCommand extends ClrscopeSubcommand {
  /**
   * An event's fields, read from its JSON object ({@link EventJson}): every member in JSON and CSV
   * (payload and stack as JSON text in CSV); time, thread, name and payload in the table.
   */
  static final RecordSchema<Map<String, Object>> SCHEMA =
      new RecordSchema<>(
          null,
          List.of(
              member("time", Unit.TEXT).only(Shown.DATA),
              Field.<Map<String, Object>>of(
                  "relativeMs", "TIME_MS", 12, Unit.MILLIS, o -> o.get("relativeMs")),
              member("provider", Unit.TEXT).only(Shown.DATA),
              member("eventId", Unit.ID).only(Shown.DATA),
              member("version", Unit.COUNT).only(Shown.DATA),
              member("name", Unit.TEXT).only(Shown.DATA),
              Field.<Map<String, Object>>of(
                  "threadId", "THREAD", 8, Unit.ID, o -> o.get("threadId")),
              member("processor", Unit.COUNT).only(Shown.DATA),
              Field.<Map<String, Object>>of("event", "EVENT", 40, Unit.TEXT, o -> null)
                  .cell(o -> o.get("provider") + "/" + o.get("name"))
                  .only(Shown.TABLE),
              member("activityId", Unit.TEXT).only(Shown.DATA).optional(),
              member("relatedActivityId", Unit.TEXT).only(Shown.DATA).optional(),
              member("stack", Unit.WORDS).only(Shown.DATA).optional(),
              member("payloadError", Unit.TEXT).only(Shown.DATA).optional(),
              member("payload", Unit.TEXT).only(Shown.JSON),
              Field.<Map<String, Object>>of(
                      "payload", "PAYLOAD", 0, Unit.TEXT, o -> JsonText.of(o.get("payload")))
                  .only(Shown.FLAT)));

  private static Field<Map<String, Object>> member(String key, Unit unit) {
    return Field.of(key, key, 0, unit, o -> o.get(key));
  }

  /** How many events between checks that stdout is still open (a check flushes). */
  private static final int CHECK_EVERY = 4096;

  @Parameters(index = "0", paramLabel = "FILE", description = "The nettrace file.")
  Path input;

  @Option(
      names = "--provider",
      paramLabel = "PROVIDER",
      description = "Only this provider's events (name, case-insensitive).")
  String provider;

  @Option(
      names = "--event",
      paramLabel = "NAME|ID",
      description =
          "Only this event: its id, or a name such as GC/Start, GCStart, ExceptionThrown or an"
              + " EventSource event name.")
  String event;

  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      defaultValue = "jsonl",
      converter = StreamFormatOption.Offered.class,
      completionCandidates = StreamFormatOption.Offered.class,
      description =
          "${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}, one JSON object a line); json is"
              + " one document of every event.")
  OutputFormat format = OutputFormat.jsonl;

  @Override
  public Integer call() {
    if (event != null
        && event.strip().matches("\\d+")
        && (event.strip().length() > 5 || Integer.parseInt(event.strip()) > 0xFFFF)) {
      throw new ParameterException(
          spec.commandLine(),
          "--event takes an event id from 0 to 65535 or a name, got " + event.strip());
    }
    // Lines go out in 64 KiB writes, not one per event: the output of a file is read as a whole.
    BufferedOutputStream buffered = new BufferedOutputStream(out(), 1 << 16);
    PrintStream out = new PrintStream(buffered, false, StandardCharsets.UTF_8);
    // JSON Lines, the default and the bulk of what this command writes, go straight to bytes.
    EventJsonLines jsonLines = format == OutputFormat.jsonl ? new EventJsonLines(buffered) : null;
    Renderer.RecordSink<Map<String, Object>> records =
        jsonLines != null
            ? null
            : Renderer.of(format, out, err(), 0)
                .records(Renderer.Stream.live(SCHEMA).inDocument(Map.of(), "events").buffered());
    long[] written = {0};
    StopSwitch closed = new StopSwitch();
    SessionResult read =
        TraceFileInput.feed(
            input,
            closed,
            e -> {
              if (provider != null && !e.providerName().equalsIgnoreCase(provider.strip())) {
                return;
              }
              if (event != null && !EventNames.matches(e, event)) {
                return;
              }
              if (jsonLines != null) {
                try {
                  jsonLines.write(e);
                } catch (IOException x) {
                  throw new UncheckedIOException(x);
                }
              } else {
                records.write(EventJson.of(e));
              }
              if (++written[0] % CHECK_EVERY == 0 && (out.checkError() || out().checkError())) {
                // stdout closed (| head): stop quietly.
                closed.request("standard output was closed");
              }
            });
    if (closed.isStopRequested()) {
      return 0;
    }
    if (records != null) {
      records.finish(null);
    } else {
      out.flush();
    }
    TraceFileInput.warnings(read, "printed").forEach(this::warn);
    if (written[0] == 0 && (provider != null || event != null)) {
      warn("no event matched");
    }
    return 0;
  }
}
