package dev.clrscope.cli.commands.trace;

import dev.clrscope.cli.commands.ClrscopeSubcommand;
import dev.clrscope.cli.options.FormatOption;
import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Result;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.monitor.session.SessionResult;
import dev.clrscope.monitor.trace.EventNames;
import dev.clrscope.nettrace.EventMetadata;
import dev.clrscope.nettrace.TraceHeader;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
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

  /** What the trace is, as a whole. */
  private record Head(
      String file,
      TraceHeader header,
      Instant start,
      Instant end,
      Double durationMs,
      long events,
      int threads,
      long dropped,
      SessionResult read) {
    String format() {
      return "NetTrace V"
          + header.formatVersion()
          + ", pointer size "
          + header.pointerSize()
          + ", process "
          + header.processId();
    }
  }

  private static final RecordSchema<Head> HEAD =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("file", "File", 0, Unit.TEXT, Head::file),
              Field.of("format", "Format", 0, Unit.TEXT, Head::format).only(Field.Shown.TABLE),
              Field.data("formatVersion", Unit.ID, (Head h) -> h.header().formatVersion()),
              Field.data("pointerSize", Unit.COUNT, (Head h) -> h.header().pointerSize()),
              Field.data("processId", Unit.ID, (Head h) -> h.header().processId()),
              Field.data("start", Unit.TIME, Head::start),
              Field.data("end", Unit.TIME, Head::end),
              Field.of("span", "Time span", 0, Unit.TEXT, (Head h) -> null)
                  .cell(
                      h ->
                          h.start() == null
                              ? "-"
                              : Unit.time(h.start()) + " .. " + Unit.time(h.end()))
                  .only(Field.Shown.TABLE),
              Field.of("durationMs", "Duration", 0, Unit.MILLIS, Head::durationMs)
                  .cell(h -> h.durationMs() == null ? "-" : Unit.durationMillis(h.durationMs())),
              Field.of("events", "Events", 0, Unit.COUNT, Head::events),
              Field.of("threads", "Threads", 0, Unit.COUNT, Head::threads),
              Field.of("droppedEvents", "Dropped events", 0, Unit.COUNT, Head::dropped),
              Field.data(
                  "truncated",
                  Unit.TEXT,
                  (Head h) ->
                      h.read().truncation() == null ? null : h.read().truncation().getMessage()),
              Field.data("trailingBytes", Unit.COUNT, (Head h) -> h.read().trailingBytes())));

  private static final RecordSchema<Totals> TOTALS =
      new RecordSchema<Totals>(
              null,
              List.of(
                  Field.of("provider", "PROVIDER", 0, Unit.TEXT, (Totals t) -> t.provider),
                  Field.of("eventId", "ID", 0, Unit.ID, (Totals t) -> t.eventId),
                  Field.of("version", "VER", 0, Unit.ID, (Totals t) -> t.version),
                  Field.of("name", "EVENT", 0, Unit.TEXT, (Totals t) -> t.name),
                  Field.of("count", "COUNT", 0, Unit.COUNT, (Totals t) -> t.count),
                  Field.of("bytes", "BYTES", 0, Unit.COUNT, (Totals t) -> t.bytes)))
          .withPriority(List.of("name", "count", "provider", "eventId", "bytes", "version"))
          .withKey("name");

  /** An event type: provider, id and version. */
  private record EventType(String provider, int eventId, int version) {}

  @Override
  protected Result run() {
    Map<EventType, Totals> byType = new HashMap<>();
    // An event's totals by its metadata's id first, the metadata object the same (a V6 label may
    // give an event metadata of its own): no key made and hashed per event (10 million events: a
    // tenth of the command's time).
    EventMetadata[][] seen = {new EventMetadata[64]};
    Totals[][] seenTotals = {new Totals[64]};
    Set<Long> threads = new HashSet<>();
    // Threads seen lately, by a few bits of their id: the set is asked (a boxed id) only for a
    // thread
    // not among them; events of a few threads interleave.
    long[] recentThreads = new long[64];
    Arrays.fill(recentThreads, Long.MIN_VALUE);
    long[] span = {0, Long.MAX_VALUE, Long.MIN_VALUE};
    TraceHeader[] header = new TraceHeader[1];
    SessionResult read =
        TraceFileInput.read(
            input,
            trace -> {
              header[0] = trace.header();
              return trace.feed(
                  e -> {
                    span[0]++;
                    long thread = e.threadId();
                    int slot = (int) (thread ^ thread >>> 32) & (recentThreads.length - 1);
                    if (recentThreads[slot] != thread) {
                      threads.add(thread);
                      recentThreads[slot] = thread;
                    }
                    span[1] = Math.min(span[1], e.timestamp());
                    span[2] = Math.max(span[2], e.timestamp());
                    EventMetadata m = e.metadata();
                    int id = m.metadataId();
                    Totals t =
                        id >= 0 && id < seen[0].length && seen[0][id] == m
                            ? seenTotals[0][id]
                            : null;
                    if (t == null) {
                      t =
                          byType.computeIfAbsent(
                              new EventType(e.providerName(), e.eventId(), e.version()),
                              k ->
                                  new Totals(
                                      k.provider(),
                                      k.eventId(),
                                      k.version(),
                                      EventNames.displayName(e)));
                      if (id >= 0 && id < 1 << 16) {
                        if (id >= seen[0].length) {
                          int size = Integer.highestOneBit(id) * 2;
                          seen[0] = Arrays.copyOf(seen[0], size);
                          seenTotals[0] = Arrays.copyOf(seenTotals[0], size);
                        }
                        seen[0][id] = m;
                        seenTotals[0][id] = t;
                      }
                    }
                    t.count++;
                    t.bytes += e.payloadLength();
                  });
            });
    TraceFileInput.warnings(read, "counted").forEach(this::warn);
    long events = span[0];
    long first = span[1];
    long last = span[2];
    List<Totals> rows = new ArrayList<>(byType.values());
    rows.sort(
        Comparator.comparing((Totals t) -> t.provider)
            .thenComparingInt(t -> t.eventId)
            .thenComparingInt(t -> t.version));
    boolean any = events > 0;
    Head head =
        new Head(
            input.toString(),
            header[0],
            any ? header[0].toUtc(first) : null,
            any ? header[0].toUtc(last) : null,
            any ? (header[0].relativeNanos(last) - header[0].relativeNanos(first)) / 1e6 : null,
            events,
            threads.size(),
            read.droppedEvents(),
            read);
    return Report.builder()
        .values(HEAD, head)
        .rows("byEvent", null, TOTALS, rows)
        .primary()
        .build();
  }
}
