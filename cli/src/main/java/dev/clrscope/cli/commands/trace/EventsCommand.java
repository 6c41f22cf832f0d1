package dev.clrscope.cli.commands.trace;

import dev.clrscope.cli.commands.ClrscopeSubcommand;
import dev.clrscope.cli.options.StreamFormatOption;
import dev.clrscope.cli.output.StandardOutput;
import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.Field.Shown;
import dev.clrscope.cli.render.JsonText;
import dev.clrscope.cli.render.OutputFormat;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Records;
import dev.clrscope.cli.render.Renderer;
import dev.clrscope.cli.render.Result;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.monitor.session.SessionResult;
import dev.clrscope.monitor.session.StopSwitch;
import dev.clrscope.monitor.trace.EventNames;
import dev.clrscope.nettrace.TraceEvent;
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

  /**
   * An event of the file as the renderer takes it: its JSON object is made only when a format other
   * than JSON Lines asks for it, and once.
   */
  static final class Decoded {
    private final TraceEvent event;
    private Map<String, Object> object;

    Decoded(TraceEvent event) {
      this.event = event;
    }

    TraceEvent event() {
      return event;
    }

    Map<String, Object> object() {
      if (object == null) {
        object = EventJson.of(event);
      }
      return object;
    }
  }

  /** The stream of events: buffered (a file is read as a whole), JSON Lines straight as bytes. */
  static Renderer.Stream<Decoded> stream() {
    return Renderer.Stream.live(SCHEMA.from(Decoded::object))
        .inDocument(Map.of(), "events")
        .buffered()
        .withJsonLines(new EventJsonLines());
  }

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
  protected Result run() {
    if (event != null
        && event.strip().matches("\\d+")
        && (event.strip().length() > 5 || Integer.parseInt(event.strip()) > 0xFFFF)) {
      throw new ParameterException(
          spec.commandLine(),
          "--event takes an event id from 0 to 65535 or a name, got " + event.strip());
    }
    return Records.of(
        stream(),
        sink -> {
          long[] written = {0};
          StopSwitch closed = new StopSwitch();
          // stdout closed (| head): stop quietly at the next event.
          Runnable outputClosed = () -> closed.request("standard output was closed");
          StandardOutput.onFailure(outputClosed);
          SessionResult read;
          try {
            read =
                TraceFileInput.feed(
                    input,
                    closed,
                    e -> {
                      if (provider != null
                          && !e.providerName().equalsIgnoreCase(provider.strip())) {
                        return;
                      }
                      if (event != null && !EventNames.matches(e, event)) {
                        return;
                      }
                      sink.write(new Decoded(e));
                      written[0]++;
                    });
          } finally {
            StandardOutput.removeListener(outputClosed);
          }
          if (closed.isStopRequested()) {
            return null;
          }
          TraceFileInput.warnings(read, "printed").forEach(this::warn);
          if (written[0] == 0 && (provider != null || event != null)) {
            warn("no event matched");
          }
          return null;
        });
  }
}
