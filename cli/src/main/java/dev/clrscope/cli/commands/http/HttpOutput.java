package dev.clrscope.cli.commands.http;

import dev.clrscope.cli.options.OutputFormat;
import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.StackedRecords;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.monitor.http.HttpPhase;
import dev.clrscope.monitor.http.HttpRecord;
import dev.clrscope.monitor.http.HttpSummary;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Prints HTTP request records as they come and the summary at the end: a table, JSON Lines ({@code
 * "kind":"request"}, then {@code "kind":"summary"}), or CSV (the summary then goes to stderr).
 */
final class HttpOutput {
  /** The fields of a record. */
  static final RecordSchema<HttpRecord> SCHEMA = schema();

  private static RecordSchema<HttpRecord> schema() {
    List<Field<HttpRecord>> f = new ArrayList<>();
    f.add(Field.of("time", "TIME", 12, Unit.TIME, HttpRecord::time));
    f.add(
        Field.of("status", "STATUS", 6, Unit.COUNT, HttpRecord::status).cell(HttpRecord::outcome));
    f.add(Field.of("durationMs", "DURATION_MS", 11, Unit.MILLIS, HttpRecord::durationMillis));
    for (HttpPhase p : HttpPhase.values()) {
      Field<HttpRecord> phase =
          Field.of(p.key(), heading(p), 0, Unit.MILLIS, r -> r.phaseMillis(p));
      // The table keeps the phases a person reads first; the rest are in JSON and CSV.
      f.add(
          p == HttpPhase.DNS
                  || p == HttpPhase.CONNECT
                  || p == HttpPhase.TLS
                  || p == HttpPhase.RESPONSE_HEADERS
              ? phase
              : phase.only(Field.Shown.DATA));
    }
    f.add(Field.of("version", "HTTP", 4, Unit.TEXT, HttpRecord::version));
    f.add(Field.<HttpRecord>data("host", Unit.TEXT, HttpRecord::host));
    f.add(Field.<HttpRecord>data("connectionId", Unit.COUNT, HttpRecord::connectionId));
    f.add(
        Field.<HttpRecord>data("redirects", Unit.TEXT, HttpOutput::redirects)
            .only(Field.Shown.JSON));
    f.add(
        Field.<HttpRecord>data("redirectedTo", Unit.WORDS, HttpOutput::redirectTargets)
            .only(Field.Shown.CSV));
    f.add(Field.<HttpRecord>data("failure", Unit.TEXT, HttpRecord::failure));
    f.add(Field.of("url", "URL", 0, Unit.TEXT, HttpRecord::url).cell(HttpOutput::urlCell));
    return new RecordSchema<>("request", f);
  }

  /** The phase's table heading. */
  private static String heading(HttpPhase p) {
    return switch (p) {
      case DNS -> "DNS_MS";
      case CONNECT -> "CONNECT_MS";
      case TLS -> "TLS_MS";
      case QUEUE -> "QUEUE_MS";
      case REQUEST -> "SEND_MS";
      case RESPONSE_HEADERS -> "HEADERS_MS";
      case RESPONSE_CONTENT -> "CONTENT_MS";
    };
  }

  private static List<Map<String, Object>> redirects(HttpRecord r) {
    List<Map<String, Object>> list = new ArrayList<>();
    for (HttpRecord.Redirect d : r.redirects()) {
      Map<String, Object> o = new LinkedHashMap<>();
      o.put("status", d.status());
      o.put("from", d.from());
      o.put("to", d.to());
      list.add(o);
    }
    return list;
  }

  private static List<String> redirectTargets(HttpRecord r) {
    return r.redirects().stream().map(d -> d.status() + ":" + d.to()).toList();
  }

  /** The URL, then each redirect ({@code -> 302 URL}), then a failure's reason. */
  private static String urlCell(HttpRecord r) {
    StringBuilder s = new StringBuilder(r.url());
    r.redirects().forEach(d -> s.append(" -> ").append(d.status()).append(' ').append(d.to()));
    if (r.failure() != null) {
      s.append("  (").append(r.failure()).append(')');
    }
    return s.toString();
  }

  private final StackedRecords<HttpRecord> records;

  HttpOutput(PrintStream out, PrintStream err, OutputFormat format) {
    this.records = new StackedRecords<>(out, err, format, SCHEMA, false, r -> List.of());
  }

  /** Prints the header now, so a watcher sees the columns before the first row. */
  void header() {
    records.header();
  }

  /** Prints one record. */
  void request(HttpRecord r) {
    records.write(r);
  }

  /** Prints the summary: its lines (table), an object (json), or lines on stderr (csv). */
  void summary(HttpSummary s, String stoppedBecause) {
    records.summary(summaryObject(s), stoppedBecause, p -> summaryLines(p, s, stoppedBecause));
  }

  static Map<String, Object> summaryObject(HttpSummary s) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("kind", "summary");
    o.put("observedSeconds", s.observedNanos() / 1e9);
    o.put("requests", s.requests());
    o.put("perSecond", s.perSecond());
    o.put("failed", s.failed());
    o.put("redirects", s.redirects());
    List<Object> groups = new ArrayList<>();
    for (HttpSummary.Group g : s.byHostAndStatus()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("host", g.host());
      m.put("status", g.status());
      m.put("count", g.count());
      m.put("p50Ms", g.p50Millis());
      m.put("p95Ms", g.p95Millis());
      m.put("maxMs", g.maxMillis());
      groups.add(m);
    }
    o.put("byHostAndStatus", groups);
    return o;
  }

  private static void summaryLines(PrintStream p, HttpSummary s, String stoppedBecause) {
    p.println(StackedRecords.watchedLine(10, s.observedNanos(), stoppedBecause));
    if (s.requests() == 0) {
      p.println("No HTTP request ended.");
      p.flush();
      return;
    }
    Double rate = s.perSecond();
    p.println(
        String.format(
            Locale.ROOT,
            "Requests  %d (%s/s), %d failed, %d redirects followed",
            s.requests(),
            rate == null ? "-" : String.format(Locale.ROOT, "%.2f", rate),
            s.failed(),
            s.redirects()));
    String heading = "%-6s  %6s  %9s  %9s  %9s  %s";
    p.println(
        String.format(
            Locale.ROOT, heading, "STATUS", "COUNT", "P50_MS", "P95_MS", "MAX_MS", "HOST"));
    for (HttpSummary.Group g : s.byHostAndStatus()) {
      p.println(
          String.format(
              Locale.ROOT,
              "%-6s  %6d  %9.3f  %9.3f  %9.3f  %s",
              g.status(),
              g.count(),
              g.p50Millis(),
              g.p95Millis(),
              g.maxMillis(),
              g.host()));
    }
    p.flush();
  }
}
