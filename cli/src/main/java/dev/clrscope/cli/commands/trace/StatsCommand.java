package dev.clrscope.cli.commands.trace;

import dev.clrscope.cli.CommandFailure;
import dev.clrscope.cli.commands.ClrscopeSubcommand;
import dev.clrscope.cli.options.FormatOption;
import dev.clrscope.cli.options.OutputFormat;
import dev.clrscope.cli.output.IoErrors;
import dev.clrscope.cli.render.Column;
import dev.clrscope.cli.render.JsonText;
import dev.clrscope.cli.render.Table;
import dev.clrscope.cli.render.TableRenderer;
import dev.clrscope.monitor.trace.EventNames;
import dev.clrscope.nettrace.NetTraceReader;
import dev.clrscope.nettrace.TraceEvent;
import dev.clrscope.nettrace.TraceHeader;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/** {@code clrscope trace stats}: what a trace holds, per provider and event. */
@Command(
    name = "stats",
    mixinStandardHelpOptions = true,
    description = {
      "Count a trace's events per provider and event (id, version, name), with their payload"
          + " bytes; the time span, threads and dropped events. A truncated trace is counted up"
          + " to its last complete block, with a warning."
    })
public final class StatsCommand extends ClrscopeSubcommand {
  @Parameters(index = "0", paramLabel = "FILE", description = "The nettrace file.")
  Path input;

  @Mixin FormatOption format;

  /** One event type's totals. */
  private static final class Totals {
    final String provider;
    final int eventId;
    final int version;
    final String name;
    long count;
    long bytes;

    Totals(String provider, int eventId, int version, String name) {
      this.provider = provider;
      this.eventId = eventId;
      this.version = version;
      this.name = name;
    }
  }

  /** An event type: provider, id and version. */
  private record EventType(String provider, int eventId, int version) {}

  @Override
  public Integer call() {
    Map<EventType, Totals> byType = new HashMap<>();
    Set<Long> threads = new HashSet<>();
    long events = 0;
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;
    TraceHeader header;
    long dropped;
    TraceFileInput.ReadEnding ending;
    try (NetTraceReader r = TraceFileInput.open(input)) {
      header = r.header();
      TraceEvent e;
      while ((e = r.next()) != null) {
        events++;
        threads.add(e.threadId());
        first = Math.min(first, e.timestamp());
        last = Math.max(last, e.timestamp());
        TraceEvent ev = e;
        Totals t =
            byType.computeIfAbsent(
                new EventType(e.providerName(), e.eventId(), e.version()),
                k ->
                    new Totals(k.provider(), k.eventId(), k.version(), EventNames.displayName(ev)));
        t.count++;
        t.bytes += e.payloadLength();
      }
      dropped = r.droppedEvents();
      ending = TraceFileInput.ReadEnding.of(r);
    } catch (UncheckedIOException e) {
      throw new CommandFailure("could not read " + input + ": " + IoErrors.reason(e), e);
    }
    ending.warnings("counted").forEach(this::warn);
    List<Totals> rows = new ArrayList<>(byType.values());
    rows.sort(
        Comparator.comparing((Totals t) -> t.provider)
            .thenComparingInt(t -> t.eventId)
            .thenComparingInt(t -> t.version));
    Table table =
        new Table(
            List.of(
                Column.text("provider", "PROVIDER"),
                Column.number("eventId", "ID"),
                Column.number("version", "VER"),
                Column.text("name", "EVENT"),
                Column.number("count", "COUNT"),
                Column.number("bytes", "BYTES")));
    for (Totals t : rows) {
      table.add(t.provider, t.eventId, t.version, t.name, t.count, t.bytes);
    }
    boolean any = events > 0;
    String start = any ? header.toUtc(first).toString() : null;
    String end = any ? header.toUtc(last).toString() : null;
    Double durationMs =
        any ? (header.relativeNanos(last) - header.relativeNanos(first)) / 1e6 : null;
    OutputFormat f = format.format();
    TableRenderer renderer = new TableRenderer(out());
    if (f == OutputFormat.csv) {
      renderer.list(table, f);
      return 0;
    }
    Map<String, Object> summary = new LinkedHashMap<>();
    summary.put("file", input.toString());
    summary.put("formatVersion", header.formatVersion());
    summary.put("pointerSize", header.pointerSize());
    summary.put("processId", header.processId());
    summary.put("start", start);
    summary.put("end", end);
    summary.put("durationMs", durationMs);
    summary.put("events", events);
    summary.put("threads", threads.size());
    summary.put("droppedEvents", dropped);
    summary.put("truncated", ending.truncatedAt());
    summary.put("trailingBytes", ending.trailingBytes());
    if (f == OutputFormat.json) {
      summary.put("byEvent", table.objects());
      out().println(JsonText.of(summary));
      out().flush();
      return 0;
    }
    Table head =
        new Table(
            List.of(
                Column.text("file", "File"),
                Column.text("format", "Format"),
                Column.text("span", "Time span"),
                Column.text("duration", "Duration"),
                Column.number("events", "Events"),
                Column.number("threads", "Threads"),
                Column.number("dropped", "Dropped events")));
    head.add(
        input.toString(),
        "NetTrace V"
            + header.formatVersion()
            + ", pointer size "
            + header.pointerSize()
            + ", process "
            + header.processId(),
        any ? start + " .. " + end : null,
        any ? String.format(Locale.ROOT, "%.3f s", durationMs / 1000) : null,
        events,
        threads.size(),
        dropped);
    renderer.record(head, OutputFormat.table);
    out().println();
    renderer.list(table, OutputFormat.table);
    return 0;
  }
}
