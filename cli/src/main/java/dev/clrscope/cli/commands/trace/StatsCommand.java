package dev.clrscope.cli.commands.trace;

import dev.clrscope.cli.commands.ClrscopeSubcommand;
import dev.clrscope.cli.options.FormatOption;
import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Result;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.monitor.trace.EventNames;
import dev.clrscope.nettrace.EventMetadata;
import dev.clrscope.nettrace.EventTally;
import dev.clrscope.nettrace.NetTraceFormatException;
import dev.clrscope.nettrace.TraceHeader;
import dev.clrscope.nettrace.UnorderedVisit;
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
      NetTraceFormatException truncation,
      long trailingBytes) {
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
                  (Head h) -> h.truncation() == null ? null : h.truncation().getMessage()),
              Field.data("trailingBytes", Unit.COUNT, Head::trailingBytes)));

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

  /**
   * The events of one block, or (added up) of the trace. An event's count found by its metadata's
   * id, the metadata object the same (a V6 label may give an event metadata of its own): no key
   * made and hashed per event (10 million events: a tenth of the command's time).
   */
  private static final class Tally implements EventTally<Tally> {
    private EventMetadata[] seen = new EventMetadata[64];
    private long[] counts = new long[64];
    private long[] bytes = new long[64];
    private int[] touched = new int[64];
    private int touchedCount;

    /** Events by type: the trace's totals, and a block's events whose id has other metadata. */
    final Map<EventType, Totals> byType = new HashMap<>();

    final Set<Long> threads = new HashSet<>();

    /**
     * Threads seen lately, by a few bits of their id: the set is asked (a boxed id) only for a
     * thread not among them; events of a few threads interleave.
     */
    private final long[] recentThreads = new long[64];

    long events;
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;

    Tally() {
      Arrays.fill(recentThreads, Long.MIN_VALUE);
    }

    @Override
    public void event(EventMetadata m, long threadId, long timestamp, int payloadLength) {
      events++;
      int slot = (int) (threadId ^ threadId >>> 32) & (recentThreads.length - 1);
      if (recentThreads[slot] != threadId) {
        threads.add(threadId);
        recentThreads[slot] = threadId;
      }
      first = Math.min(first, timestamp);
      last = Math.max(last, timestamp);
      int id = m.metadataId();
      if (id >= 0 && id < seen.length && seen[id] == m) {
        counts[id]++;
        bytes[id] += payloadLength;
      } else {
        firstOfItsId(m, payloadLength);
      }
    }

    private void firstOfItsId(EventMetadata m, int payloadLength) {
      int id = m.metadataId();
      if (id >= 0 && id < 1 << 16 && (id >= seen.length || seen[id] == null)) {
        if (id >= seen.length) {
          int size = Integer.highestOneBit(id) * 2;
          seen = Arrays.copyOf(seen, size);
          counts = Arrays.copyOf(counts, size);
          bytes = Arrays.copyOf(bytes, size);
        }
        if (touchedCount == touched.length) {
          touched = Arrays.copyOf(touched, touchedCount * 2);
        }
        touched[touchedCount++] = id;
        seen[id] = m;
        counts[id] = 1;
        bytes[id] = payloadLength;
      } else {
        Totals t = totals(m);
        t.count++;
        t.bytes += payloadLength;
      }
    }

    private Totals totals(EventMetadata m) {
      return byType.computeIfAbsent(
          new EventType(m.providerName(), m.eventId(), m.version()),
          k -> new Totals(k.provider(), k.eventId(), k.version(), EventNames.displayName(m)));
    }

    @Override
    public void add(Tally block) {
      for (int i = 0; i < block.touchedCount; i++) {
        int id = block.touched[i];
        Totals t = totals(block.seen[id]);
        t.count += block.counts[id];
        t.bytes += block.bytes[id];
      }
      for (Totals b : block.byType.values()) {
        Totals t =
            byType.computeIfAbsent(
                new EventType(b.provider, b.eventId, b.version),
                k -> new Totals(b.provider, b.eventId, b.version, b.name));
        t.count += b.count;
        t.bytes += b.bytes;
      }
      threads.addAll(block.threads);
      events += block.events;
      first = Math.min(first, block.first);
      last = Math.max(last, block.last);
    }

    @Override
    public void clear() {
      for (int i = 0; i < touchedCount; i++) {
        seen[touched[i]] = null;
      }
      touchedCount = 0;
      byType.clear();
      threads.clear();
      Arrays.fill(recentThreads, Long.MIN_VALUE);
      events = 0;
      first = Long.MAX_VALUE;
      last = Long.MIN_VALUE;
    }
  }

  @Override
  protected Result run() {
    UnorderedVisit<Tally> visit = TraceFileInput.visit(input, Tally::new);
    NetTraceFormatException truncation = visit.stopReason().orElse(null);
    TraceFileInput.warnings(truncation, visit.trailingBytes(), "counted").forEach(this::warn);
    Tally tally = visit.tally();
    TraceHeader header = visit.header();
    List<Totals> rows = new ArrayList<>(tally.byType.values());
    rows.sort(
        Comparator.comparing((Totals t) -> t.provider)
            .thenComparingInt(t -> t.eventId)
            .thenComparingInt(t -> t.version));
    boolean any = tally.events > 0;
    Head head =
        new Head(
            input.toString(),
            header,
            any ? header.toUtc(tally.first) : null,
            any ? header.toUtc(tally.last) : null,
            any
                ? (header.relativeNanos(tally.last) - header.relativeNanos(tally.first)) / 1e6
                : null,
            tally.events,
            tally.threads.size(),
            visit.droppedEvents(),
            truncation,
            visit.trailingBytes());
    return Report.builder()
        .values(HEAD, head)
        .rows("byEvent", null, TOTALS, rows)
        .primary()
        .build();
  }
}
