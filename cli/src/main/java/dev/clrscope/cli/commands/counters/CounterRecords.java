package dev.clrscope.cli.commands.counters;

import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.Field.Shown;
import dev.clrscope.cli.render.OutputFormat;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Renderer;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.monitor.counters.CounterSource;
import dev.clrscope.monitor.counters.InstrumentType;
import dev.clrscope.monitor.counters.Measurement;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The records of {@code counters collect} and {@code counters monitor}'s machine formats, declared
 * once: dotnet-counters' layout (a line per value, with its CSV header and its JSON document, so
 * its readers work unchanged) and clrscope's whole measurements. Timestamps are the events' own, in
 * UTC. The renderer of the format chosen draws them; a JSON document stays valid however the
 * session ends: non-finite numbers are written as null.
 */
final class CounterRecords {
  private CounterRecords() {}

  /**
   * One value as dotnet-counters reports it: a histogram gives one per percentile.
   *
   * @param time the event's time
   * @param provider the meter or EventSource
   * @param name the display name with its unit
   * @param tags {@code k=v;k=v}, empty for none
   * @param counterType Rate or Metric
   * @param value the value
   */
  record Line(
      Instant time, String provider, String name, String tags, String counterType, Double value) {

    /** The CSV's Counter Name column: the name, then the tags in brackets. */
    String counterName() {
      return tags.isEmpty() ? name : name + "[" + tags + "]";
    }
  }

  /** dotnet-counters' JSON timestamp (its "u" format), in UTC. */
  private static final java.time.format.DateTimeFormatter REFERENCE_TIME =
      java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss'Z'")
          .withZone(java.time.ZoneOffset.UTC);

  /** dotnet-counters' {@code StartTime}: .NET's invariant culture DateTime text. */
  private static final java.time.format.DateTimeFormatter REFERENCE_START =
      java.time.format.DateTimeFormatter.ofPattern("MM/dd/yyyy HH:mm:ss")
          .withZone(java.time.ZoneId.systemDefault());

  /**
   * dotnet-counters' records, kept so that its readers work unchanged: its CSV columns (ISO-8601
   * times) and its JSON objects (its "u" times), the same lines.
   */
  static final RecordSchema<Line> DOTNET_COUNTERS =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("Timestamp", "", 0, Unit.TEXT, (Line l) -> l.time().toString())
                  .only(Shown.CSV),
              Field.of("timestamp", "", 0, Unit.TEXT, (Line l) -> REFERENCE_TIME.format(l.time()))
                  .only(Shown.JSON),
              Field.of("Provider", "", 0, Unit.TEXT, Line::provider).only(Shown.CSV),
              Field.of("provider", "", 0, Unit.TEXT, Line::provider).only(Shown.JSON),
              Field.of("Counter Name", "", 0, Unit.TEXT, Line::counterName).only(Shown.CSV),
              Field.of("name", "", 0, Unit.TEXT, Line::name).only(Shown.JSON),
              Field.of("tags", "", 0, Unit.TEXT, Line::tags).only(Shown.JSON),
              Field.of("Counter Type", "", 0, Unit.TEXT, Line::counterType).only(Shown.CSV),
              Field.of("counterType", "", 0, Unit.TEXT, Line::counterType).only(Shown.JSON),
              Field.of("Mean/Increment", "", 0, Unit.TEXT, (Line l) -> CounterText.exact(l.value()))
                  .only(Shown.CSV),
              Field.<Line>of("value", "", 0, Unit.TEXT, l -> number(l.value())).only(Shown.JSON)));

  /** The JSON object of a measurement; absent numbers are left out, non-finite ones are null. */
  static final RecordSchema<Measurement> FULL =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("timestamp", "", 0, Unit.TIME, Measurement::time),
              Field.of("provider", "", 0, Unit.TEXT, Measurement::provider),
              Field.of(
                  "source",
                  "",
                  0,
                  Unit.TEXT,
                  m -> m.source() == CounterSource.METER ? "meter" : "eventcounters"),
              Field.of("name", "", 0, Unit.TEXT, Measurement::name),
              Field.<Measurement>of(
                      "displayName",
                      "",
                      0,
                      Unit.TEXT,
                      m -> m.displayName().equals(m.name()) ? null : m.displayName())
                  .optional(),
              Field.of("unit", "", 0, Unit.TEXT, Measurement::unit),
              Field.of("type", "", 0, Unit.TEXT, m -> m.type().label()),
              Field.of("tags", "", 0, Unit.TEXT, Measurement::tags),
              number("rate", Measurement::rate),
              number("value", Measurement::value),
              number("min", Measurement::min),
              number("max", Measurement::max),
              Field.<Measurement>of("count", "", 0, Unit.COUNT, Measurement::count).optional(),
              number("sum", Measurement::sum),
              Field.<Measurement>of("percentiles", "", 0, Unit.TEXT, CounterRecords::percentiles)
                  .optional(),
              number("intervalSeconds", Measurement::intervalSeconds)));

  /**
   * The layouts of {@code counters collect}'s records: dotnet-counters' lines (a line per value, as
   * its CSV and JSON readers expect), or clrscope's whole measurements (tags, unit, type, min, max,
   * count, percentiles).
   */
  enum Layout {
    dotnetCounters("dotnet-counters"),
    full("full");

    private final String label;

    Layout(String label) {
      this.label = label;
    }

    @Override
    public String toString() {
      return label;
    }

    /** The layout of a format when none is asked for: whole measurements in JSON Lines. */
    static Layout defaultFor(OutputFormat format) {
      return format == OutputFormat.jsonl ? full : dotnetCounters;
    }

    /** Reads a layout as a user types it ({@code dotnet-counters}). */
    static final class Converter
        implements picocli.CommandLine.ITypeConverter<Layout>, Iterable<String> {
      @Override
      public Layout convert(String value) {
        for (Layout l : values()) {
          if (l.label.equalsIgnoreCase(value.strip())) {
            return l;
          }
        }
        throw new picocli.CommandLine.TypeConversionException(
            "expected dotnet-counters or full, got " + value);
      }

      @Override
      public java.util.Iterator<String> iterator() {
        return List.of("dotnet-counters", "full").iterator();
      }
    }
  }

  /**
   * dotnet-counters' lines, in its JSON document after its {@code TargetProcess} and {@code
   * StartTime}.
   */
  static Renderer.Stream<Line> dotnetCounters(String processName) {
    Map<String, Object> head = new LinkedHashMap<>();
    head.put("TargetProcess", processName);
    head.put("StartTime", REFERENCE_START.format(Instant.now()));
    return Renderer.Stream.live(DOTNET_COUNTERS).inDocument(head, "Events");
  }

  /** Whole measurements, in a JSON document after what it says {@code about} the session. */
  static Renderer.Stream<Measurement> full(Map<String, Object> about) {
    return Renderer.Stream.live(FULL).inDocument(about, "measurements");
  }

  /** Why the session stopped and what it never saw: the summary of whole measurements. */
  private record Tail(String stopReason, List<String> notes) {}

  private static final RecordSchema<Tail> TAIL =
      new RecordSchema<>(
          "summary",
          List.of(
              Field.data("stopReason", Unit.TEXT, Tail::stopReason),
              Field.data("notes", Unit.WORDS, Tail::notes)));

  /** The summary of whole measurements (dotnet-counters' layout has none). */
  static Report summary(String stopReason, List<String> notes) {
    return Report.record(TAIL, new Tail(stopReason, notes));
  }

  /** dotnet-counters' lines of one measurement: a line per number it carries. */
  static List<Line> lines(Measurement m, double intervalSeconds) {
    String name = CounterText.nameWithUnit(m, intervalSeconds);
    List<Line> lines = new ArrayList<>();
    if (m.type() == InstrumentType.HISTOGRAM) {
      for (Map.Entry<Double, Double> q : m.quantiles().entrySet()) {
        String pct = "Percentile=" + CounterText.percentile(q.getKey()).substring(1);
        lines.add(
            new Line(
                m.time(), m.provider(), name, CounterText.csvTags(m, pct), "Metric", q.getValue()));
      }
      return lines;
    }
    Double v = m.primary();
    if (v != null) {
      // A first interval of an observable counter has no rate yet: nothing to report then.
      lines.add(
          new Line(
              m.time(),
              m.provider(),
              name,
              CounterText.csvTags(m, null),
              m.type().isRate() ? "Rate" : "Metric",
              v));
    }
    return lines;
  }

  /** The JSON object of one measurement. */
  static Map<String, Object> object(Measurement m) {
    return FULL.jsonObject(m);
  }

  private static Field<Measurement> number(String key, Function<Measurement, Double> value) {
    return Field.<Measurement>of(key, "", 0, Unit.TEXT, m -> number(value.apply(m))).optional();
  }

  private static Map<String, Object> percentiles(Measurement m) {
    if (m.quantiles().isEmpty()) {
      return null;
    }
    Map<String, Object> p = new LinkedHashMap<>();
    for (Map.Entry<Double, Double> q : m.quantiles().entrySet()) {
      p.put(CounterText.percentile(q.getKey()), number(q.getValue()));
    }
    return p;
  }

  /**
   * A JSON number without exponent noise; a non-finite one stays a double, which JSON writes as
   * null; an absent one is null, and left out.
   */
  private static Object number(Double v) {
    if (v == null || !Double.isFinite(v)) {
      return v;
    }
    return new BigDecimal(CounterText.exact(v));
  }
}
