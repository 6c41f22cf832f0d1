package dev.clrscope.cli.commands.analyze;

import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.dac.analysis.HeapContents;
import dev.clrscope.dac.analysis.HeapContents.Duplicate;
import java.util.List;
import java.util.Set;

/**
 * {@code duplicates}: live strings of one value held more than once (what interning or a cache
 * would save): per value, how many, the bytes all but one take, a sample address.
 */
final class Duplicates extends SosCommand {
  static final int DEFAULT_TOP = 20;

  /** Characters of a value shown in a table; JSON and CSV have it whole. */
  private static final int SHOWN_CHARS = 60;

  Duplicates() {
    super(
        "duplicates",
        List.of(),
        "duplicates [-min N] [-top N]",
        "Live strings of one value held more than once (at least -min, default 2): count, wasted"
            + " bytes (all but one), a sample address; most wasted first, "
            + DEFAULT_TOP
            + " without -top",
        SosArgs.Spec.of(Set.of(), Set.of("-min", "-top"), 0, 0));
  }

  private static final RecordSchema<Duplicate> ROW =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("count", "COUNT", 0, Unit.COUNT, Duplicate::count),
              Field.of("wastedBytes", "WASTED", 0, Unit.COUNT, Duplicate::wastedBytes),
              Field.of("size", "SIZE", 0, Unit.COUNT, Duplicate::size).only(Field.Shown.DATA),
              Field.of("sample", "SAMPLE", 0, Unit.ADDRESS, Duplicate::sample),
              Field.of("value", "VALUE", 0, Unit.TEXT, Duplicate::value)
                  .cell(d -> shown(d.value()))));

  private static String shown(String value) {
    String flat = value.replace("\n", "\\n").replace("\r", "\\r");
    return flat.length() <= SHOWN_CHARS ? flat : flat.substring(0, SHOWN_CHARS) + "\u2026";
  }

  @Override
  void run(AnalyzeContext context, SosArgs args) {
    int min = args.countOption("-min", 2, 2);
    int top = args.countOption("-top", 1, DEFAULT_TOP);
    List<Duplicate> all = HeapContents.duplicateStrings(context.heap(), context.live(), min);
    long wasted = all.stream().mapToLong(Duplicate::wastedBytes).sum();
    context.show(
        Report.builder()
            .rows("duplicates", null, ROW, all.stream().limit(top).toList())
            .note(
                Unit.count(all.size())
                    + " values held "
                    + Unit.count(min)
                    + " times or more; "
                    + Unit.count(wasted)
                    + " bytes in the copies.")
            .build());
  }
}
