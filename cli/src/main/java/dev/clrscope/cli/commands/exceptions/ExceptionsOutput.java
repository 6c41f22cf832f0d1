package dev.clrscope.cli.commands.exceptions;

import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.FrameFields;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Renderer;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Summarized;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.cli.render.Watched;
import dev.clrscope.monitor.exceptions.ExceptionRecord;
import dev.clrscope.monitor.exceptions.ExceptionSummary;
import java.util.ArrayList;
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
    f.add(Field.of("threadId", "THREAD", 7, Unit.ID, ExceptionRecord::threadId));
    f.add(Field.of("type", "TYPE", 32, Unit.TEXT, ExceptionRecord::type));
    f.addAll(FrameFields.frameFields("throwSite", "THROW SITE", 40, ExceptionRecord::throwSite));
    // The framework's frame that threw on the user's behalf, beside the user's.
    f.add(
        Field.<ExceptionRecord>of(
                "thrownIn",
                "THROWN IN",
                40,
                Unit.TEXT,
                r -> r.thrownIn() == null ? null : r.thrownIn().name())
            .cell(r -> r.thrownIn() == null ? "-" : r.thrownIn().text())
            .cutAtStart()
            .optional());
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
      f.addAll(FrameFields.stackFields("stack", ExceptionRecord::stack));
    }
    f.add(Field.of("message", "MESSAGE", 0, Unit.TEXT, ExceptionRecord::message));
    // What a narrow terminal keeps: what was thrown and where, then why; the time and thread last.
    return new RecordSchema<>("exception", f)
        .withKey("type")
        .withPriority(
            List.of("type", "throwSite", "message", "time", "handling", "threadId", "thrownIn"));
  }

  /** The records as they come: with {@code stacks}, each one's frames under it in a table. */
  static Renderer.Stream<ExceptionRecord> stream(boolean stacks) {
    Renderer.Stream<ExceptionRecord> stream = Renderer.Stream.live(schema(stacks));
    return stacks ? stream.withDetails(r -> FrameFields.atFrames(r.stack())) : stream;
  }

  private static final RecordSchema<Summarized<ExceptionSummary>> SUMMARY =
      new RecordSchema<>(
          "summary",
          Watched.fieldsThen(
              Summarized::watched,
              List.of(
                  Field.of(
                          "exceptions",
                          "Exceptions",
                          0,
                          Unit.COUNT,
                          (Summarized<ExceptionSummary> x) -> x.s().exceptions())
                      .cell(x -> counts(x.s())),
                  Field.data(
                      "uncaught", Unit.COUNT, (Summarized<ExceptionSummary> x) -> x.s().uncaught()),
                  Field.data(
                      "unhandled",
                      Unit.COUNT,
                      (Summarized<ExceptionSummary> x) -> x.s().unhandled()),
                  Field.data(
                      "perSecond",
                      Unit.DECIMAL,
                      (Summarized<ExceptionSummary> x) -> x.s().perSecond()))));

  private static final RecordSchema<Map.Entry<String, Long>> BY_TYPE =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("type", "TYPE", 0, Unit.TEXT, Map.Entry::getKey),
              Field.of("count", "COUNT", 0, Unit.COUNT, Map.Entry::getValue)),
          List.of(),
          "type");

  private static final RecordSchema<ExceptionSummary.SiteCount> BY_SITE = bySite();

  private static RecordSchema<ExceptionSummary.SiteCount> bySite() {
    List<Field<ExceptionSummary.SiteCount>> f = new ArrayList<>();
    f.add(Field.of("count", "COUNT", 0, Unit.COUNT, ExceptionSummary.SiteCount::count));
    f.add(Field.of("type", "TYPE", 0, Unit.TEXT, ExceptionSummary.SiteCount::type));
    f.addAll(
        FrameFields.frameFields(
            "throwSite", "THROW SITE", 0, ExceptionSummary.SiteCount::throwSite));
    return new RecordSchema<>(null, f).withKey("throwSite");
  }

  /** The summary, its first line how long it watched and why it stopped ({@code null}: a file). */
  static Report summaryReport(ExceptionSummary s, String stoppedBecause) {
    Watched watched = new Watched(s.observedNanos(), stoppedBecause);
    Report.Builder r = Report.builder().values(SUMMARY, new Summarized<>(s, watched));
    return r.mapRows("byType", "By type", BY_TYPE, List.copyOf(s.byType().entrySet()))
        .rows("byThrowSite", "By throw site", BY_SITE, s.byThrowSite())
        .build();
  }

  private static String counts(ExceptionSummary s) {
    return s.exceptions()
        + (s.perSecond() == null ? "" : String.format(Locale.ROOT, " (%.2f/s)", s.perSecond()))
        + ", "
        + s.uncaught()
        + " uncaught"
        + (s.unhandled() == 0 ? "" : " (" + s.unhandled() + " unhandled: the target died)");
  }
}
