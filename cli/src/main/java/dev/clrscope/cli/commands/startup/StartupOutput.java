package dev.clrscope.cli.commands.startup;

import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Renderer;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Summarized;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.cli.render.Watched;
import dev.clrscope.monitor.startup.StartupRecord;
import dev.clrscope.monitor.startup.StartupSummary;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

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
    f.add(Field.of("threadId", "THREAD", 7, Unit.ID, StartupRecord::threadId));
    f.add(Field.of("name", "NAME", 40, Unit.TEXT, StartupRecord::name));
    f.add(Field.of("detail", "DETAIL", 0, Unit.TEXT, StartupRecord::detail));
    // The item's own kind (assembly, jit, type, gc, main) is the "kind" member.
    return new RecordSchema<>(null, f).withKey("name");
  }

  /** The records as they come. */
  static Renderer.Stream<StartupRecord> stream() {
    return Renderer.Stream.live(SCHEMA);
  }

  private static final RecordSchema<StartupSummary.Launch> LAUNCH =
      new RecordSchema<>(
          null,
          List.of(
              Field.data(
                  "startToWaitMs",
                  Unit.MILLIS,
                  (StartupSummary.Launch l) -> l.startToWaitNanos() / 1e6),
              Field.data("heldMs", Unit.MILLIS, (StartupSummary.Launch l) -> l.heldNanos() / 1e6),
              Field.data(
                  "resumeToMainMs",
                  Unit.MILLIS,
                  (StartupSummary.Launch l) -> millis(l.resumeToMainNanos())),
              Field.data(
                  "startToMainMs",
                  Unit.MILLIS,
                  (StartupSummary.Launch l) -> millis(l.startToMainNanos()))));

  private static final RecordSchema<Summarized<StartupSummary>> SUMMARY =
      new RecordSchema<>(
          "summary",
          Watched.fieldsThen(
              Summarized::watched,
              List.of(
                  Field.of(
                          "mainAtMs",
                          "Main",
                          0,
                          Unit.MILLIS,
                          (Summarized<StartupSummary> x) -> millis(x.s().mainOffsetNanos()))
                      .cell(StartupOutput::mainText),
                  Field.data(
                      "mainMethod",
                      Unit.TEXT,
                      (Summarized<StartupSummary> x) -> x.s().mainMethod()),
                  Field.<Summarized<StartupSummary>>data(
                          "launch",
                          Unit.TEXT,
                          x -> x.s().launch() == null ? null : LAUNCH.jsonObject(x.s().launch()))
                      .only(Field.Shown.JSON),
                  Field.<Summarized<StartupSummary>>of(
                          "launchText",
                          "Launch",
                          0,
                          Unit.TEXT,
                          x -> x.s().launch() == null ? null : "")
                      .cell(x -> launchText(x.s().launch()))
                      .only(Field.Shown.TABLE)
                      .optional())));

  private static final RecordSchema<StartupRecord> SLOW_ITEM =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("name", "NAME", 0, Unit.TEXT, StartupRecord::name),
              Field.of("atMs", "AT_MS", 0, Unit.MILLIS, StartupRecord::offsetMillis),
              Field.of("durationMs", "DURATION_MS", 0, Unit.MILLIS, StartupRecord::durationMillis),
              Field.of("detail", "DETAIL", 0, Unit.TEXT, StartupRecord::detail)));

  private static final RecordSchema<StartupSummary.Category> BY_KIND =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("kind", "KIND", 0, Unit.TEXT, StartupSummary.Category::kind),
              Field.of("count", "COUNT", 0, Unit.COUNT, StartupSummary.Category::count),
              Field.of(
                  "beforeMain", "BEFORE_MAIN", 0, Unit.COUNT, StartupSummary.Category::beforeMain),
              Field.of(
                  "totalMs",
                  "TOTAL_MS",
                  0,
                  Unit.MILLIS,
                  (StartupSummary.Category c) -> c.totalNanos() / 1e6),
              Field.nested("slowest", SLOW_ITEM, StartupSummary.Category::slowest)));

  /** The summary, its first line how long it watched and why it stopped ({@code null}: a file). */
  static Report summaryReport(StartupSummary s, String stoppedBecause) {
    Watched watched = new Watched(s.observedNanos(), stoppedBecause);
    Report.Builder r = Report.builder().values(SUMMARY, new Summarized<>(s, watched));
    r.rows("byKind", null, BY_KIND, s.categories());
    for (StartupSummary.Category c : s.categories()) {
      if (!c.slowest().isEmpty()) {
        // The slowest items are in byKind's JSON; a person reads them as tables of their own.
        r.part(new Report.Rows<>(null, "Slowest " + c.kind(), SLOW_ITEM, c.slowest(), null, false));
      }
    }
    return r.build();
  }

  private static String mainText(Summarized<StartupSummary> x) {
    StartupSummary s = x.s();
    return s.mainOffsetNanos() == null
        ? "not seen (a ReadyToRun or AOT app's Main is not compiled)"
        : String.format(Locale.ROOT, "at %.3f ms: %s", s.mainOffsetNanos() / 1e6, s.mainMethod());
  }

  private static String launchText(StartupSummary.Launch l) {
    // The wait for clrscope is left out of the start: without a tool the runtime does not wait.
    return String.format(
        Locale.ROOT,
        "%s: %.3f ms of host and native runtime start, then %s from the resume"
            + " (the runtime waited %.3f ms for clrscope, left out)",
        l.startToMainNanos() == null
            ? "Main not seen"
            : String.format(
                Locale.ROOT, "Main %.3f ms after the start", l.startToMainNanos() / 1e6),
        l.startToWaitNanos() / 1e6,
        l.resumeToMainNanos() == null
            ? "no Main"
            : String.format(Locale.ROOT, "%.3f ms to Main", l.resumeToMainNanos() / 1e6),
        l.heldNanos() / 1e6);
  }

  private static Double millis(Long nanos) {
    return nanos == null ? null : nanos / 1e6;
  }
}
