package dev.clrscope.cli.commands.counters;

import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.RecordStream;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.monitor.counters.CounterSource;
import dev.clrscope.monitor.counters.InstrumentType;
import dev.clrscope.monitor.counters.Measurement;
import java.io.PrintStream;
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
   * The output formats of {@code counters collect}: {@code csv} and {@code json} as dotnet-counters
   * writes them, {@code json-full} clrscope's document of whole measurements, {@code jsonl} the
   * same objects a line each.
   */
  enum Format {
    csv,
    json,
    jsonFull,
    jsonl;

    /** Reads a format as a user types it ({@code json-full}), ignoring case. */
    static final class Converter implements picocli.CommandLine.ITypeConverter<Format> {
      @Override
      public Format convert(String value) {
        return switch (value.strip().toLowerCase(java.util.Locale.ROOT)) {
          case "csv" -> csv;
          case "json" -> json;
          case "json-full" -> jsonFull;
          case "jsonl" -> jsonl;
          default ->
              throw new picocli.CommandLine.TypeConversionException(
                  "'" + value + "' is not a format: csv, json, json-full or jsonl");
        };
      }
    }
  }

  private final Format format;
  private final double intervalSeconds;
  private final RecordStream<CsvLine> csv;
  private final RecordStream<Measurement> json;

  CounterRecordWriter(PrintStream out, Format format, double intervalSeconds) {
    this.format = format;
    this.intervalSeconds = intervalSeconds;
    this.csv =
        format == Format.json
            ? new RecordStream<>(out, REFERENCE_JSON, RecordStream.Form.JSON_DOCUMENT)
            : new RecordStream<>(out, CSV, RecordStream.Form.CSV);
    this.json =
        new RecordStream<>(
            out,
            JSON,
            format == Format.jsonFull
                ? RecordStream.Form.JSON_DOCUMENT
                : RecordStream.Form.JSON_LINES);
  }

  /** Whether this format writes dotnet-counters' lines rather than whole measurements. */
  private boolean referenceLines() {
    return format == Format.csv || format == Format.json;
  }

  /**
   * Writes what comes before the first measurement: the CSV header, or the JSON document's head.
   */
  void start(Map<String, Object> about) {
    if (format == Format.csv) {
      csv.start();
    } else if (format == Format.json) {
      Map<String, Object> head = new LinkedHashMap<>();
      head.put("TargetProcess", about.get("processName"));
      head.put("StartTime", REFERENCE_START.format(java.time.Instant.now()));
      csv.start(head, "Events");
    } else {
      json.start(about, "measurements");
    }
  }

  /** Writes one measurement (a line per number it carries, in dotnet-counters' formats). */
  void write(Measurement m) {
    if (referenceLines()) {
      referenceLines(m);
    } else {
      json.write(m);
    }
  }

  /**
   * Ends the output: closes a JSON document, clrscope's with what is worth knowing about the
   * session (dotnet-counters' has nothing after its events).
   */
  void finish(List<String> notes, String stopReason) {
    Map<String, Object> tail = new LinkedHashMap<>();
    tail.put("stopReason", stopReason);
    tail.put("notes", notes);
    if (referenceLines()) {
      csv.finish(format == Format.json ? Map.of() : tail);
    } else {
      json.finish(tail);
    }
  }

  /** How many records (rows or objects) were written. */
  long written() {
    return csv.written() + json.written();
  }

  private void referenceLines(Measurement m) {
    String time = format == Format.json ? REFERENCE_TIME.format(m.time()) : m.time().toString();
    String name = CounterText.nameWithUnit(m, intervalSeconds);
    if (m.type() == InstrumentType.HISTOGRAM) {
      for (Map.Entry<Double, Double> q : m.quantiles().entrySet()) {
        String pct = "Percentile=" + CounterText.percentile(q.getKey()).substring(1);
        csv.write(
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
    csv.write(
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
