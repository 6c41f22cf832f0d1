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
 * Writes measurements as they come: CSV with dotnet-counters' header, one JSON document, or JSON
 * Lines. Timestamps are the events' own, in UTC ISO-8601. The JSON document stays valid however the
 * session ends, as long as {@link #finish} runs: non-finite numbers are written as null.
 */
final class CounterRecordWriter {
  /** One line of dotnet-counters' CSV: a histogram gives one per percentile. */
  record CsvLine(
      String timestamp, String provider, String counterName, String counterType, Double value) {}

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

  /** The output formats of {@code counters collect}. */
  enum Format {
    csv,
    json,
    jsonl
  }

  private final Format format;
  private final double intervalSeconds;
  private final RecordStream<CsvLine> csv;
  private final RecordStream<Measurement> json;

  CounterRecordWriter(PrintStream out, Format format, double intervalSeconds) {
    this.format = format;
    this.intervalSeconds = intervalSeconds;
    this.csv = new RecordStream<>(out, CSV, RecordStream.Form.CSV);
    this.json =
        new RecordStream<>(
            out,
            JSON,
            format == Format.json ? RecordStream.Form.JSON_DOCUMENT : RecordStream.Form.JSON_LINES);
  }

  /**
   * Writes what comes before the first measurement: the CSV header, or the JSON document's head.
   */
  void start(Map<String, Object> about) {
    if (format == Format.csv) {
      csv.start();
    } else {
      json.start(about, "measurements");
    }
  }

  /** Writes one measurement (a CSV row per number it carries). */
  void write(Measurement m) {
    if (format == Format.csv) {
      csvLines(m);
    } else {
      json.write(m);
    }
  }

  /** Ends the output: closes the JSON document with what is worth knowing about the session. */
  void finish(List<String> notes, String stopReason) {
    Map<String, Object> tail = new LinkedHashMap<>();
    tail.put("stopReason", stopReason);
    tail.put("notes", notes);
    if (format == Format.csv) {
      csv.finish(tail);
    } else {
      json.finish(tail);
    }
  }

  /** How many records (rows or objects) were written. */
  long written() {
    return csv.written() + json.written();
  }

  private void csvLines(Measurement m) {
    String time = m.time().toString();
    if (m.type() == InstrumentType.HISTOGRAM) {
      for (Map.Entry<Double, Double> q : m.quantiles().entrySet()) {
        String pct = "Percentile=" + CounterText.percentile(q.getKey()).substring(1);
        csv.write(
            new CsvLine(
                time,
                m.provider(),
                CounterText.csvName(m, intervalSeconds, pct),
                "Metric",
                q.getValue()));
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
            CounterText.csvName(m, intervalSeconds, null),
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
