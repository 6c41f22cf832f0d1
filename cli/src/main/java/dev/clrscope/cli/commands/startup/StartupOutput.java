package dev.clrscope.cli.commands.startup;

import dev.clrscope.cli.options.OutputFormat;
import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.StackedRecords;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.monitor.startup.StartupRecord;
import dev.clrscope.monitor.startup.StartupSummary;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Prints a start's items as they come and the summary at the end: a table, JSON Lines (the item's
 * {@code kind}, then {@code "kind":"summary"}), or CSV (the summary then goes to stderr).
 */
final class StartupOutput {
  /** The fields of an item. */
  static final RecordSchema<StartupRecord> SCHEMA = schema();

  private static RecordSchema<StartupRecord> schema() {
    List<Field<StartupRecord>> f = new ArrayList<>();
    f.add(Field.<StartupRecord>data("time", Unit.TIME, StartupRecord::time));
    f.add(Field.of("atMs", "AT_MS", 9, Unit.MILLIS, StartupRecord::offsetMillis));
    f.add(Field.of("kind", "KIND", 8, Unit.TEXT, StartupRecord::kind));
    f.add(Field.of("durationMs", "DURATION_MS", 11, Unit.MILLIS, StartupRecord::durationMillis));
    f.add(Field.of("threadId", "THREAD", 7, Unit.COUNT, StartupRecord::threadId));
    f.add(Field.of("name", "NAME", 40, Unit.TEXT, StartupRecord::name));
    f.add(Field.of("detail", "DETAIL", 0, Unit.TEXT, StartupRecord::detail));
    // The item's own kind (assembly, jit, type, gc, main) is the "kind" member.
    return new RecordSchema<>(null, f);
  }

  private final StackedRecords<StartupRecord> records;

  StartupOutput(PrintStream out, PrintStream err, OutputFormat format) {
    this.records = new StackedRecords<>(out, err, format, SCHEMA, false, r -> List.of());
  }

  /** Prints the header now, so a watcher sees the columns before the first row. */
  void header() {
    records.header();
  }

  /** Prints one item. */
  void item(StartupRecord r) {
    records.write(r);
  }

  /** Prints the summary: its lines (table), an object (json), or lines on stderr (csv). */
  void summary(StartupSummary s, String stoppedBecause) {
    records.summary(summaryObject(s), stoppedBecause, p -> summaryLines(p, s, stoppedBecause));
  }

  static Map<String, Object> summaryObject(StartupSummary s) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("kind", "summary");
    o.put("observedSeconds", s.observedNanos() / 1e9);
    o.put("mainAtMs", s.mainOffsetNanos() == null ? null : s.mainOffsetNanos() / 1e6);
    o.put("mainMethod", s.mainMethod());
    StartupSummary.Launch l = s.launch();
    Map<String, Object> launch = null;
    if (l != null) {
      launch = new LinkedHashMap<>();
      launch.put("startToWaitMs", l.startToWaitNanos() / 1e6);
      launch.put("heldMs", l.heldNanos() / 1e6);
      launch.put("resumeToMainMs", millis(l.resumeToMainNanos()));
      launch.put("startToMainMs", millis(l.startToMainNanos()));
    }
    o.put("launch", launch);
    List<Object> categories = new ArrayList<>();
    for (StartupSummary.Category c : s.categories()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("kind", c.kind());
      m.put("count", c.count());
      m.put("beforeMain", c.beforeMain());
      m.put("totalMs", c.totalNanos() / 1e6);
      List<Object> slowest = new ArrayList<>();
      for (StartupRecord r : c.slowest()) {
        Map<String, Object> item = new LinkedHashMap<>();
        item.put("name", r.name());
        item.put("atMs", r.offsetMillis());
        item.put("durationMs", r.durationMillis());
        item.put("detail", r.detail());
        slowest.add(item);
      }
      m.put("slowest", slowest);
      categories.add(m);
    }
    o.put("byKind", categories);
    return o;
  }

  private static Double millis(Long nanos) {
    return nanos == null ? null : nanos / 1e6;
  }

  private static void summaryLines(PrintStream p, StartupSummary s, String stoppedBecause) {
    p.println(StackedRecords.watchedLine(9, s.observedNanos(), stoppedBecause));
    p.println(
        s.mainOffsetNanos() == null
            ? "Main     not seen (a ReadyToRun or AOT app's Main is not compiled)"
            : String.format(
                Locale.ROOT, "Main     at %.3f ms: %s", s.mainOffsetNanos() / 1e6, s.mainMethod()));
    StartupSummary.Launch l = s.launch();
    if (l != null) {
      // The wait for clrscope is left out of the start: without a tool the runtime does not wait.
      p.println(
          String.format(
              Locale.ROOT,
              "Launch   %s: %.3f ms of host and native runtime start, then %s from the resume"
                  + " (the runtime waited %.3f ms for clrscope, left out)",
              l.startToMainNanos() == null
                  ? "Main not seen"
                  : String.format(
                      Locale.ROOT, "Main %.3f ms after the start", l.startToMainNanos() / 1e6),
              l.startToWaitNanos() / 1e6,
              l.resumeToMainNanos() == null
                  ? "no Main"
                  : String.format(Locale.ROOT, "%.3f ms to Main", l.resumeToMainNanos() / 1e6),
              l.heldNanos() / 1e6));
    }
    if (s.categories().isEmpty()) {
      p.flush();
      return;
    }
    p.println(
        String.format(
            Locale.ROOT, "%-8s  %7s  %11s  %10s", "KIND", "COUNT", "BEFORE_MAIN", "TOTAL_MS"));
    for (StartupSummary.Category c : s.categories()) {
      p.println(
          String.format(
              Locale.ROOT,
              "%-8s  %7d  %11d  %10.3f",
              c.kind(),
              c.count(),
              c.beforeMain(),
              c.totalNanos() / 1e6));
    }
    for (StartupSummary.Category c : s.categories()) {
      if (c.slowest().isEmpty()) {
        continue;
      }
      p.println();
      p.println("Slowest " + c.kind());
      p.println(String.format(Locale.ROOT, "%11s  %9s  %s", "DURATION_MS", "AT_MS", "NAME"));
      for (StartupRecord r : c.slowest()) {
        p.println(
            String.format(
                    Locale.ROOT,
                    "%11.3f  %9.3f  %s  %s",
                    r.durationMillis(),
                    r.offsetMillis(),
                    r.name(),
                    r.detail() == null ? "" : r.detail())
                .stripTrailing());
      }
    }
    p.flush();
  }
}
