package dev.clrscope.cli.commands.trace;

import dev.clrscope.cli.CommandFailure;
import dev.clrscope.cli.commands.ClrscopeSubcommand;
import dev.clrscope.cli.render.JsonText;
import dev.clrscope.monitor.trace.EventNames;
import dev.clrscope.nettrace.NetTraceReader;
import dev.clrscope.nettrace.TraceEvent;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/** {@code clrscope trace events}: a trace's events, decoded. */
@Command(
    name = "events",
    mixinStandardHelpOptions = true,
    description = {
      "Print a trace's events in time order with their payload fields by name: one JSON object a"
          + " line (JSON Lines), or a table line each."
    })
public final class EventsCommand extends ClrscopeSubcommand {
  /** The line formats. */
  enum LineFormat {
    json,
    table
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
      defaultValue = "json",
      description = "${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
  LineFormat format;

  @Override
  public Integer call() {
    PrintStream out = out();
    long printed = 0;
    String truncated;
    try (NetTraceReader r = TraceFileInput.open(input)) {
      TraceEvent e;
      while ((e = r.next()) != null) {
        if (provider != null && !e.providerName().equalsIgnoreCase(provider.strip())) {
          continue;
        }
        if (event != null && !EventNames.matches(e, event)) {
          continue;
        }
        Map<String, Object> o = EventJson.of(e);
        if (format == LineFormat.json) {
          out.println(JsonText.of(o));
        } else {
          out.println(
              String.format(
                  Locale.ROOT,
                  "%12.3f ms  thread %-8d %s/%s  %s",
                  e.relativeMillis(),
                  e.threadId(),
                  e.providerName(),
                  o.get("name"),
                  JsonText.of(o.get("payload"))));
        }
        printed++;
        if (out.checkError()) {
          // stdout closed (| head): stop quietly.
          return 0;
        }
      }
      truncated = r.stopReason().map(Throwable::getMessage).orElse(null);
    } catch (UncheckedIOException e) {
      throw new CommandFailure("could not read " + input + ": " + e.getCause().getMessage(), e);
    }
    out.flush();
    if (truncated != null) {
      warn("the trace is truncated (" + truncated + "); printed everything before that point");
    }
    if (printed == 0 && (provider != null || event != null)) {
      warn("no event matched");
    }
    return 0;
  }
}
