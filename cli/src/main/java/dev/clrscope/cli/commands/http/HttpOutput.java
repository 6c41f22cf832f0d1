package dev.clrscope.cli.commands.http;

import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Renderer;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Summarized;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.cli.render.Watched;
import dev.clrscope.monitor.http.HttpPhase;
import dev.clrscope.monitor.http.HttpRecord;
import dev.clrscope.monitor.http.HttpSummary;
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
    f.add(
        Field.of(
            "timeToFirstByteMs", "TTFB_MS", 7, Unit.MILLIS, HttpRecord::timeToFirstByteMillis));
    for (HttpPhase p : HttpPhase.values()) {
      Field<HttpRecord> phase =
          Field.of(p.key(), heading(p), 0, Unit.MILLIS, r -> r.phaseMillis(p));
      // The table keeps the phases a person reads first; the rest are in JSON and CSV.
      f.add(
          p == HttpPhase.DNS
                  || p == HttpPhase.CONNECT
                  || p == HttpPhase.TLS
                  || p == HttpPhase.SERVER
              ? phase
              : phase.only(Field.Shown.DATA));
    }
    // With the phases that follow one another (queue, request, server, response), the duration.
    f.add(Field.<HttpRecord>data("otherMs", Unit.MILLIS, HttpRecord::otherMillis));
    f.add(Field.of("version", "HTTP", 4, Unit.TEXT, HttpRecord::version));
    f.add(Field.<HttpRecord>data("host", Unit.TEXT, HttpRecord::host));
    f.add(Field.<HttpRecord>data("connectionId", Unit.ID, HttpRecord::connectionId));
    f.add(
        Field.<HttpRecord>data("redirects", Unit.TEXT, HttpOutput::redirects)
            .only(Field.Shown.JSON));
    f.add(
        Field.<HttpRecord>data("redirectedTo", Unit.WORDS, HttpOutput::redirectTargets)
            .only(Field.Shown.CSV));
    f.add(Field.<HttpRecord>data("failure", Unit.TEXT, HttpRecord::failure));
    f.add(Field.of("url", "URL", 0, Unit.TEXT, HttpRecord::url).cell(HttpOutput::urlCell));
    // What a narrow terminal keeps: the URL, how it ended and how long it took, the server's
    // share; a new connection's phases (on a pooled connection, none) last.
    return new RecordSchema<>("request", f)
        .withKey("url")
        .withPriority(
            List.of(
                "url",
                "status",
                "durationMs",
                "timeToFirstByteMs",
                "serverMs",
                "time",
                "version",
                "connectMs",
                "dnsMs",
                "tlsMs"));
  }

  /** The phase's table heading. */
  private static String heading(HttpPhase p) {
    return switch (p) {
      case DNS -> "DNS_MS";
      case CONNECT -> "CONNECT_MS";
      case TLS -> "TLS_MS";
      case QUEUE -> "QUEUE_MS";
      case REQUEST -> "SEND_MS";
      case SERVER -> "SERVER_MS";
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

  /** The records as they come. */
  static Renderer.Stream<HttpRecord> stream() {
    return Renderer.Stream.live(SCHEMA);
  }

  private static final RecordSchema<Summarized<HttpSummary>> SUMMARY =
      new RecordSchema<>(
          "summary",
          Watched.fieldsThen(
              Summarized::watched,
              List.of(
                  Field.<Summarized<HttpSummary>>of(
                          "requests",
                          "Requests",
                          0,
                          Unit.COUNT,
                          x -> x.s().requests() == 0 ? null : x.s().requests())
                      .cell(HttpOutput::requests)
                      .only(Field.Shown.TABLE)
                      .optional(),
                  Field.data(
                      "requests", Unit.COUNT, (Summarized<HttpSummary> x) -> x.s().requests()),
                  Field.data(
                      "perSecond", Unit.DECIMAL, (Summarized<HttpSummary> x) -> x.s().perSecond()),
                  Field.data("failed", Unit.COUNT, (Summarized<HttpSummary> x) -> x.s().failed()),
                  Field.data(
                      "redirects", Unit.COUNT, (Summarized<HttpSummary> x) -> x.s().redirects()))));

  private static final RecordSchema<HttpSummary.Group> BY_PATH =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("host", "HOST", 0, Unit.TEXT, HttpSummary.Group::host),
              Field.of("path", "PATH", 0, Unit.TEXT, HttpSummary.Group::path),
              Field.of("status", "STATUS", 0, Unit.TEXT, HttpSummary.Group::status),
              Field.of("count", "COUNT", 0, Unit.COUNT, HttpSummary.Group::count),
              Field.of("p50Ms", "P50_MS", 0, Unit.MILLIS, HttpSummary.Group::p50Millis),
              Field.of("p95Ms", "P95_MS", 0, Unit.MILLIS, HttpSummary.Group::p95Millis),
              Field.of("maxMs", "MAX_MS", 0, Unit.MILLIS, HttpSummary.Group::maxMillis),
              Field.of(
                  "serverP50Ms",
                  "SERVER_P50_MS",
                  0,
                  Unit.MILLIS,
                  HttpSummary.Group::serverP50Millis)),
          List.of("path", "status", "count", "p50Ms", "serverP50Ms", "maxMs", "p95Ms", "host"),
          "path");

  /** The summary, its first line how long it watched and why it stopped ({@code null}: a file). */
  static Report summaryReport(HttpSummary s, String stoppedBecause) {
    Watched watched = new Watched(s.observedNanos(), stoppedBecause);
    Report.Builder r = Report.builder().values(SUMMARY, new Summarized<>(s, watched));
    if (s.requests() == 0) {
      r.note("No HTTP request ended.");
    }
    return r.rows("byPath", "By host and path", BY_PATH, s.byPath()).build();
  }

  private static String requests(Summarized<HttpSummary> x) {
    HttpSummary s = x.s();
    Double rate = s.perSecond();
    return String.format(
        Locale.ROOT,
        "%d (%s/s), %d failed, %d redirects followed",
        s.requests(),
        rate == null ? "-" : String.format(Locale.ROOT, "%.2f", rate),
        s.failed(),
        s.redirects());
  }
}
