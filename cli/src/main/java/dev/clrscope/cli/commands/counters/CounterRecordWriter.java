package dev.clrscope.cli.commands.counters;

import dev.clrscope.cli.render.OutputFormat;
import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Renderer;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.monitor.counters.CounterSource;
import dev.clrscope.monitor.counters.InstrumentType;
import dev.clrscope.monitor.counters.Measurement;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Writes measurements as they come: CSV with dotnet-counters' header, one JSON document in
 * dotnet-counters' layout, clrscope's own richer JSON document, or JSON Lines. Timestamps are the
 * events' own, in UTC. A JSON document stays valid however the session ends, as long as {@link
 * #finish} runs: non-finite numbers are written as null.
 */
final class CounterRecordWriter {
  /**
   * One value as dotnet-counters reports it: a histogram gives one per percentile.
   *
   * @param timestamp ISO-8601 UTC for CSV; dotnet-counters' {@code yyyy-MM-dd HH:mm:ssZ} for JSON
   * @param provider the meter or EventSource
   * @param name the display name with its unit
   * @param tags {@code k=v;k=v}, empty for none
   * @param counterType Rate or Metric
   * @param value the value
   */
  record CsvLine(
      String timestamp,
      String provider,
      String name,
      String tags,
      String counterType,
      Double value) {

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

  /** dotnet-counters' JSON objects (its {@code --format json}), kept so its readers work. */
  static final RecordSchema<CsvLine> REFERENCE_JSON =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("timestamp", "", 0, Unit.TEXT, CsvLine::timestamp),
              Field.of("provider", "", 0, Unit.TEXT, CsvLine::provider),
              Field.of("name", "", 0, Unit.TEXT, CsvLine::name),
              Field.of("tags", "", 0, Unit.TEXT, CsvLine::tags),
              Field.of("counterType", "", 0, Unit.TEXT, CsvLine::counterType),
              Field.<CsvLine>of("value", "", 0, Unit.TEXT, l -> number(l.value()))));

  /** dotnet-counters' CSV columns, kept so that its readers work unchanged. */
  static final RecordSchema<CsvLine> CSV =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("Timestamp", "", 0, Unit.TEXT, CsvLine::timestamp),
              Field.of("Provider", "", 0, Unit.TEXT, CsvLine::provider),
              Field.of("Counter Name", "", 0, Unit.TEXT, CsvLine::counterName),
              Field.of("Counter Type", "", 0, Unit.TEXT, CsvLine::counterType),
              Field.of("Mean/Increment", "", 0, Unit.TEXT, l -> CounterText.exact(l.value()))));

  /** The JSON object of a measurement; absent numbers are left out, non-finite ones are null. */
  static final RecordSchema<Measurement> JSON =
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
              Field.<Measurement>of(
                      "percentiles", "", 0, Unit.TEXT, CounterRecordWriter::percentiles)
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

  private final Renderer renderer;
  private final Layout layout;
  private final double intervalSeconds;
  private Renderer.RecordSink<CsvLine> lines;
  private Renderer.RecordSink<Measurement> measurements;

  /** A writer of {@code layout} records, drawn by {@code renderer}. */
  CounterRecordWriter(Renderer renderer, Layout layout, double intervalSeconds) {
    this.renderer = renderer;
    this.layout = layout;
    this.intervalSeconds = intervalSeconds;
  }

  /**
   * Writes what comes before the first measurement: the CSV header, or the JSON document's head
   * ({@code about} the session, or dotnet-counters' TargetProcess and StartTime).
   */
  void start(Map<String, Object> about) {
    if (layout == Layout.dotnetCounters) {
      boolean json = renderer.format() == OutputFormat.json;
      Map<String, Object> head = new LinkedHashMap<>();
      if (json) {
        head.put("TargetProcess", about.get("processName"));
        head.put("StartTime", REFERENCE_START.format(java.time.Instant.now()));
      }
      lines =
          renderer.records(
              Renderer.Stream.live(json ? REFERENCE_JSON : CSV).inDocument(head, "Events"));
      lines.start();
    } else {
      measurements = renderer.records(Renderer.Stream.live(JSON).inDocument(about, "measurements"));
      measurements.start();
    }
  }

  /** Writes one measurement (a line per number it carries, in dotnet-counters' layout). */
  void write(Measurement m) {
    if (lines != null) {
      referenceLines(m);
    } else {
      measurements.write(m);
    }
  }

  /** Why the session stopped and what it never saw, after clrscope's JSON document's records. */
  private record Tail(String stopReason, List<String> notes) {}

  private static final RecordSchema<Tail> TAIL =
      new RecordSchema<>(
          null,
          List.of(
              Field.data("stopReason", Unit.TEXT, Tail::stopReason),
              Field.data("notes", Unit.WORDS, Tail::notes)));

  /**
   * Ends the output: closes a JSON document, clrscope's with what is worth knowing about the
   * session (dotnet-counters' has nothing after its events; the command says the rest on stderr).
   */
  void finish(List<String> notes, String stopReason) {
    if (lines != null) {
      lines.finish(null);
    } else {
      measurements.finish(
          renderer.format() == OutputFormat.json
              ? Report.record(TAIL, new Tail(stopReason, notes))
              : null);
    }
  }

  /** How many records (rows or objects) were written. */
  long written() {
    return lines != null ? lines.written() : measurements.written();
  }

  private void referenceLines(Measurement m) {
    String time =
        renderer.format() == OutputFormat.json
            ? REFERENCE_TIME.format(m.time())
            : m.time().toString();
    String name = CounterText.nameWithUnit(m, intervalSeconds);
    if (m.type() == InstrumentType.HISTOGRAM) {
      for (Map.Entry<Double, Double> q : m.quantiles().entrySet()) {
        String pct = "Percentile=" + CounterText.percentile(q.getKey()).substring(1);
        lines.write(
            new CsvLine(
                time, m.provider(), name, CounterText.csvTags(m, pct), "Metric", q.getValue()));
      }
      return;
    }
    Double v = m.primary();
    if (v == null) {
      // A first interval of an observable counter has no rate yet: nothing to report.
      return;
    }
    lines.write(
        new CsvLine(
            time,
            m.provider(),
            name,
            CounterText.csvTags(m, null),
            m.type().isRate() ? "Rate" : "Metric",
            v));
  }

  /** The JSON object of one measurement. */
  static Map<String, Object> object(Measurement m) {
    return JSON.jsonObject(m);
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
