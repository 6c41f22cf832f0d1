package dev.clrscope.cli.commands.exceptions;

import dev.clrscope.cli.options.OutputFormat;
import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.StackedRecords;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.monitor.exceptions.ExceptionRecord;
import dev.clrscope.monitor.exceptions.ExceptionSummary;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Prints exception records as they come and the summary at the end, as {@code gcstats} does: a
 * table (with {@code --stacks}, each row's frames under it), JSON Lines ({@code
 * "kind":"exception"}, then {@code "kind":"summary"}), or CSV (the summary then goes to stderr, so
 * stdout stays one table).
 */
final class ExceptionsOutput {
  /** The fields of an exception record; the stack only with {@code --stacks}. */
  static RecordSchema<ExceptionRecord> schema(boolean stacks) {
    List<Field<ExceptionRecord>> f = new ArrayList<>();
    f.add(Field.of("time", "TIME", 12, Unit.TIME, ExceptionRecord::time));
    f.add(Field.of("threadId", "THREAD", 7, Unit.COUNT, ExceptionRecord::threadId));
    f.add(Field.of("type", "TYPE", 32, Unit.TEXT, ExceptionRecord::type));
    f.add(Field.of("throwSite", "THROW SITE", 40, Unit.TEXT, ExceptionRecord::throwSite));
    f.add(Field.of("handling", "HANDLING", 9, Unit.TEXT, ExceptionRecord::handling));
    f.add(
        Field.<ExceptionRecord>data("catchingMethod", Unit.TEXT, ExceptionRecord::catchingMethod));
    f.add(Field.<ExceptionRecord>data("flags", Unit.WORDS, ExceptionRecord::flags));
    f.add(
        Field.<ExceptionRecord>data(
            "hresult",
            Unit.TEXT,
            r -> String.format(Locale.ROOT, "0x%08X", r.hresult() & 0xFFFFFFFFL)));
    if (stacks) {
      f.add(Field.<ExceptionRecord>data("stack", Unit.WORDS, ExceptionRecord::stack));
    }
    f.add(Field.of("message", "MESSAGE", 0, Unit.TEXT, ExceptionRecord::message));
    return new RecordSchema<>("exception", f);
  }

  private final StackedRecords<ExceptionRecord> records;

  ExceptionsOutput(PrintStream out, PrintStream err, OutputFormat format, boolean stacks) {
    this.records =
        new StackedRecords<>(out, err, format, schema(stacks), stacks, ExceptionRecord::stack);
  }

  /** Prints the header now, so a watcher sees the columns before the first row. */
  void header() {
    records.header();
  }

  /** Prints one record. */
  void exception(ExceptionRecord r) {
    records.write(r);
  }

  /** Prints the summary: its lines (table), an object (json), or lines on stderr (csv). */
  void summary(ExceptionSummary s, String stoppedBecause) {
    records.summary(summaryObject(s), stoppedBecause, p -> summaryLines(p, s, stoppedBecause));
  }

  static Map<String, Object> summaryObject(ExceptionSummary s) {
    Map<String, Object> o = new LinkedHashMap<>();
    o.put("kind", "summary");
    o.put("exceptions", s.exceptions());
    o.put("uncaught", s.uncaught());
    o.put("unhandled", s.unhandled());
    o.put("observedSeconds", s.observedNanos() / 1e9);
    o.put("perSecond", s.perSecond());
    o.put("byType", s.byType());
    List<Object> sites = new ArrayList<>();
    for (ExceptionSummary.SiteCount c : s.byThrowSite()) {
      Map<String, Object> site = new LinkedHashMap<>();
      site.put("type", c.type());
      site.put("throwSite", c.throwSite());
      site.put("count", c.count());
      sites.add(site);
    }
    o.put("byThrowSite", sites);
    return o;
  }

  private static void summaryLines(PrintStream p, ExceptionSummary s, String stoppedBecause) {
    p.println(StackedRecords.watchedLine(12, s.observedNanos(), stoppedBecause));
    p.println(
        "Exceptions  "
            + s.exceptions()
            + (s.perSecond() == null ? "" : String.format(Locale.ROOT, " (%.2f/s)", s.perSecond()))
            + ", "
            + s.uncaught()
            + " uncaught"
            + (s.unhandled() == 0 ? "" : " (" + s.unhandled() + " unhandled: the target died)"));
    if (!s.byType().isEmpty()) {
      p.println("By type");
      s.byType().forEach((type, n) -> p.println(String.format(Locale.ROOT, "%8d  %s", n, type)));
      p.println("By throw site");
      for (ExceptionSummary.SiteCount c : s.byThrowSite()) {
        p.println(String.format(Locale.ROOT, "%8d  %s  at %s", c.count(), c.type(), c.throwSite()));
      }
    }
    p.flush();
  }
}
