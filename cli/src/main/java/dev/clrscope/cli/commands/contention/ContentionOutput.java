package dev.clrscope.cli.commands.contention;

import dev.clrscope.cli.options.OutputFormat;
import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.StackedRecords;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.monitor.contention.BlockedRecord;
import dev.clrscope.monitor.contention.BlockedSummary;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Prints blocked-thread records as they come and the summary at the end, as {@code gcstats} does: a
 * table (with {@code --stacks}, each row's frames under it), JSON Lines ({@code "kind":"lock"} or
 * {@code "kind":"wait"}, then {@code "kind":"summary"}), or CSV (the summary then goes to stderr).
 */
final class ContentionOutput {
  /** The fields of a record; the stack only with {@code --stacks}. */
  static RecordSchema<BlockedRecord> schema(boolean stacks) {
    List<Field<BlockedRecord>> f = new ArrayList<>();
    f.add(Field.of("time", "TIME", 12, Unit.TIME, BlockedRecord::time));
    f.add(Field.of("kind", "KIND", 4, Unit.TEXT, BlockedRecord::kind));
    f.add(Field.of("threadId", "THREAD", 7, Unit.COUNT, BlockedRecord::threadId));
    f.add(Field.of("durationMs", "DURATION_MS", 11, Unit.MILLIS, BlockedRecord::durationMillis));
    f.add(Field.of("ownerThreadId", "OWNER", 7, Unit.COUNT, BlockedRecord::ownerThreadId));
    f.add(Field.of("source", "SOURCE", 11, Unit.TEXT, BlockedRecord::source));
    f.add(Field.<BlockedRecord>data("lockId", Unit.TEXT, r -> hex(r.lockId())));
    f.add(Field.<BlockedRecord>data("objectId", Unit.TEXT, r -> hex(r.objectId())));
    if (stacks) {
      f.add(Field.<BlockedRecord>data("stack", Unit.WORDS, BlockedRecord::stack));
    }
    f.add(Field.of("method", "METHOD", 0, Unit.TEXT, BlockedRecord::method));
    // No "kind" member of the schema's own: the record's kind (lock, wait) is one of its fields.
    return new RecordSchema<>(null, f);
  }

  private static String hex(Long address) {
    return address == null ? null : "0x" + Long.toHexString(address);
  }

  private final StackedRecords<BlockedRecord> records;

  ContentionOutput(PrintStream out, PrintStream err, OutputFormat format, boolean stacks) {
    this.records =
        new StackedRecords<>(out, err, format, schema(stacks), stacks, BlockedRecord::stack);
  }

  /** Prints the header now, so a watcher sees the columns before the first row. */
  void header() {
    records.header();
  }

  /** Prints one record. */
  void blocked(BlockedRecord r) {
    records.write(r);
  }

  /** Prints the summary: its lines (table), an object (json), or lines on stderr (csv). */
  void summary(BlockedSummary s, String stoppedBecause) {
    records.summary(summaryObject(s), stoppedBecause, p -> summaryLines(p, s, stoppedBecause));
  }

  static Map<String, Object> summaryObject(BlockedSummary s) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("kind", "summary");
    o.put("observedSeconds", s.observedNanos() / 1e9);
    List<Object> kinds = new ArrayList<>();
    s.byKind().forEach(g -> kinds.add(group(g)));
    o.put("byKind", kinds);
    List<Object> stacks = new ArrayList<>();
    s.byStack().forEach(g -> stacks.add(group(g)));
    o.put("byStack", stacks);
    return o;
  }

  private static Map<String, Object> group(BlockedSummary.Group g) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("kind", g.kind());
    if (g.method() != null) {
      o.put("method", g.method());
    }
    if (!g.stack().isEmpty()) {
      o.put("stack", g.stack());
    }
    o.put("count", g.count());
    o.put("totalMs", g.totalMillis());
    o.put("p50Ms", g.p50Millis());
    o.put("p95Ms", g.p95Millis());
    o.put("maxMs", g.maxMillis());
    return o;
  }

  private static void summaryLines(PrintStream p, BlockedSummary s, String stoppedBecause) {
    p.println(StackedRecords.watchedLine(9, s.observedNanos(), stoppedBecause));
    if (s.byKind().isEmpty()) {
      p.println("No thread was blocked.");
      p.flush();
      return;
    }
    String heading = "%-4s  %6s  %10s  %9s  %9s  %9s  %s";
    p.println(
        String.format(
                Locale.ROOT, heading, "KIND", "COUNT", "TOTAL_MS", "P50_MS", "P95_MS", "MAX_MS", "")
            .stripTrailing());
    s.byKind().forEach(g -> p.println(line(g, "(all)")));
    p.println();
    p.println(
        "By waiting "
            + (s.byStack().stream().anyMatch(g -> !g.stack().isEmpty()) ? "stack" : "method")
            + ", most blocked time first");
    p.println(
        String.format(
            Locale.ROOT,
            heading,
            "KIND",
            "COUNT",
            "TOTAL_MS",
            "P50_MS",
            "P95_MS",
            "MAX_MS",
            "METHOD"));
    for (BlockedSummary.Group g : s.byStack()) {
      p.println(line(g, g.method()));
      g.stack().forEach(frame -> p.println("    at " + frame));
    }
    p.flush();
  }

  private static String line(BlockedSummary.Group g, String what) {
    return String.format(
            Locale.ROOT,
            "%-4s  %6d  %10.3f  %9.3f  %9.3f  %9.3f  %s",
            g.kind(),
            g.count(),
            g.totalMillis(),
            g.p50Millis(),
            g.p95Millis(),
            g.maxMillis(),
            what)
        .stripTrailing();
  }
}
