package dev.clrscope.cli.commands.counters;

import dev.clrscope.cli.render.JsonText;
import dev.clrscope.monitor.counters.CounterSource;
import dev.clrscope.monitor.counters.InstrumentType;
import dev.clrscope.monitor.counters.Measurement;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes measurements as they come: CSV with dotnet-counters' header, one JSON document, or JSON
 * Lines. Timestamps are the events' own, in UTC ISO-8601. The JSON document stays valid however the
 * session ends, as long as {@link #finish} runs: non-finite numbers are written as null.
 */
final class CounterRecordWriter {
  /** dotnet-counters' CSV header, kept so that its readers work unchanged. */
  static final String CSV_HEADER = "Timestamp,Provider,Counter Name,Counter Type,Mean/Increment";

  /** The output formats of {@code counters collect}. */
  enum Format {
    csv,
    json,
    jsonl
  }

  private final PrintStream out;
  private final Format format;
  private final double intervalSeconds;
  private boolean first = true;
  private long written;

  CounterRecordWriter(PrintStream out, Format format, double intervalSeconds) {
    this.out = out;
    this.format = format;
    this.intervalSeconds = intervalSeconds;
  }

  /**
   * Writes what comes before the first measurement: the CSV header, or the JSON document's head.
   */
  void start(Map<String, Object> about) {
    if (format == Format.csv) {
      out.println(CSV_HEADER);
    } else if (format == Format.json) {
      String head = JsonText.of(about);
      // The document is the object with one more member, the measurements, streamed.
      out.print(
          head.substring(0, head.length() - 1)
              + (about.isEmpty() ? "" : ",")
              + "\"measurements\":[");
    }
    out.flush();
  }

  /** Writes one measurement (a CSV row per number it carries). */
  void write(Measurement m) {
    switch (format) {
      case csv -> csv(m);
      case json -> {
        out.print(first ? "\n" : ",\n");
        out.print(JsonText.of(object(m)));
        written++;
      }
      default -> {
        out.println(JsonText.of(object(m)));
        written++;
      }
    }
    first = false;
    out.flush();
  }

  /** Ends the output: closes the JSON document with what is worth knowing about the session. */
  void finish(List<String> notes, String stopReason) {
    if (format == Format.json) {
      Map<String, Object> tail = new LinkedHashMap<>();
      tail.put("stopReason", stopReason);
      tail.put("notes", notes);
      String t = JsonText.of(tail);
      out.println((first ? "" : "\n") + "]," + t.substring(1));
    }
    out.flush();
  }

  /** How many records (rows or objects) were written. */
  long written() {
    return written;
  }

  private void csv(Measurement m) {
    String time = m.time().toString();
    if (m.type() == InstrumentType.HISTOGRAM) {
      for (Map.Entry<Double, Double> q : m.quantiles().entrySet()) {
        String pct = "Percentile=" + CounterText.percentile(q.getKey()).substring(1);
        row(time, m, CounterText.csvName(m, intervalSeconds, pct), "Metric", q.getValue());
      }
      return;
    }
    Double v = m.primary();
    if (v == null) {
      // A first interval of an observable counter has no rate yet: nothing to report.
      return;
    }
    row(
        time,
        m,
        CounterText.csvName(m, intervalSeconds, null),
        m.type().isRate() ? "Rate" : "Metric",
        v);
  }

  private void row(String time, Measurement m, String name, String type, Double value) {
    out.println(
        time
            + ","
            + csvField(m.provider())
            + ","
            + csvField(name)
            + ","
            + type
            + ","
            + CounterText.exact(value));
    written++;
  }

  static String csvField(String s) {
    if (s.indexOf(',') >= 0
        || s.indexOf('"') >= 0
        || s.indexOf('\n') >= 0
        || s.indexOf('\r') >= 0) {
      return '"' + s.replace("\"", "\"\"") + '"';
    }
    return s;
  }

  /** The JSON object of one measurement; absent numbers are left out, non-finite ones are null. */
  static Map<String, Object> object(Measurement m) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("timestamp", m.time().toString());
    o.put("provider", m.provider());
    o.put("source", m.source() == CounterSource.METER ? "meter" : "eventcounters");
    o.put("name", m.name());
    if (!m.displayName().equals(m.name())) {
      o.put("displayName", m.displayName());
    }
    o.put("unit", m.unit());
    o.put("type", m.type().label());
    o.put("tags", m.tags());
    put(o, "rate", m.rate());
    put(o, "value", m.value());
    put(o, "min", m.min());
    put(o, "max", m.max());
    if (m.count() != null) {
      o.put("count", m.count());
    }
    put(o, "sum", m.sum());
    if (!m.quantiles().isEmpty()) {
      Map<String, Object> p = new LinkedHashMap<>();
      for (Map.Entry<Double, Double> q : m.quantiles().entrySet()) {
        p.put(CounterText.percentile(q.getKey()), number(q.getValue()));
      }
      o.put("percentiles", p);
    }
    put(o, "intervalSeconds", m.intervalSeconds());
    return o;
  }

  private static void put(Map<String, Object> o, String key, Double v) {
    if (v != null) {
      o.put(key, number(v));
    }
  }

  /** A JSON number without exponent noise, or null for NaN and infinities. */
  private static Object number(Double v) {
    if (v == null || !Double.isFinite(v)) {
      return null;
    }
    return new BigDecimal(CounterText.exact(v));
  }
}
