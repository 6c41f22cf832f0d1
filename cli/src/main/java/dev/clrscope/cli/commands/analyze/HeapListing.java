package dev.clrscope.cli.commands.analyze;

import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Renderer;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.dac.ClrHeap;
import dev.clrscope.dac.ClrType;
import dev.clrscope.dac.Generation;
import dev.clrscope.dac.HeapObject;
import dev.clrscope.dac.HeapProblem;
import dev.clrscope.dac.HeapProblems;
import dev.clrscope.dac.HeapStatistics;
import dev.clrscope.dac.WalkSummary;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The objects of the heap that a filter keeps, as {@code dumpheap} and {@code dumpgen} list them:
 * one row per object as the walk meets it (a stream: a heap of millions of objects is never held),
 * then the statistics per type ({@code -stat}: the statistics alone), or per string value ({@code
 * -strings}).
 */
final class HeapListing {
  private HeapListing() {}

  /**
   * Which objects.
   *
   * @param type a substring of the type's name, or null
   * @param methodTable the type's method table, or 0
   * @param min the smallest size, in bytes
   * @param max the largest size, in bytes
   * @param generation one generation only, or null
   * @param reached which objects by their addresses ({@code -live}, {@code -dead}), or null
   */
  record Filter(
      String type,
      long methodTable,
      long min,
      long max,
      Generation generation,
      java.util.function.LongPredicate reached) {
    /** This filter, keeping only the objects {@code by} accepts (null: as it is). */
    Filter reached(java.util.function.LongPredicate by) {
      return by == null ? this : new Filter(type, methodTable, min, max, generation, by);
    }

    boolean everything() {
      return type == null
          && methodTable == 0
          && min == 0
          && max == Long.MAX_VALUE
          && generation == null
          && reached == null;
    }

    boolean keeps(HeapObject o) {
      ClrType t = o.type();
      return (methodTable == 0 || t.methodTable() == methodTable)
          && (type == null || t.name().contains(type))
          && o.size() >= min
          && o.size() <= max
          && (generation == null || o.generation() == generation)
          && (reached == null || reached.test(o.address()));
    }
  }

  /** How much to show. */
  enum Shape {
    /** Every object, then the statistics. */
    OBJECTS,
    /** The statistics only. */
    STATISTICS,
    /** The addresses only. */
    ADDRESSES,
    /** Strings by value. */
    STRINGS
  }

  /** An object of the listing. */
  record Listed(long address, ClrType type, long size, Generation generation) {}

  static final RecordSchema<Listed> OBJECT =
      new RecordSchema<Listed>(
              null,
              List.of(
                  Field.of("address", "ADDRESS", 14, Unit.ADDRESS, Listed::address),
                  Field.of(
                      "methodTable", "MT", 14, Unit.ADDRESS, (Listed l) -> l.type().methodTable()),
                  Field.of("size", "SIZE", 10, Unit.COUNT, Listed::size),
                  Field.data("generation", Unit.TEXT, (Listed l) -> l.generation().label()),
                  Field.of("type", "TYPE", 0, Unit.TEXT, (Listed l) -> l.type().name())))
          .withPriority(List.of("address", "type", "size"));

  private static final RecordSchema<Listed> ADDRESS =
      new RecordSchema<>(
          null, List.of(Field.of("address", "ADDRESS", 0, Unit.ADDRESS, Listed::address)));

  /** A type's count and total size. */
  record TypeRow(ClrType type, long count, long totalSize) {}

  static final RecordSchema<TypeRow> STAT =
      new RecordSchema<TypeRow>(
              null,
              List.of(
                  Field.of(
                      "methodTable", "MT", 0, Unit.ADDRESS, (TypeRow r) -> r.type().methodTable()),
                  Field.of("count", "COUNT", 0, Unit.COUNT, TypeRow::count),
                  Field.of("totalSize", "TOTALSIZE", 0, Unit.COUNT, TypeRow::totalSize),
                  Field.of("type", "CLASS NAME", 0, Unit.TEXT, (TypeRow r) -> r.type().name())))
          .withPriority(List.of("type", "count", "totalSize"));

  /**
   * The totals under the statistics, and what the walk could not read (JSON only: stderr says it to
   * a person).
   */
  record Totals(long objects, long bytes, HeapProblems problems) {
    String line() {
      return "Total " + Unit.count(objects) + " objects, " + Unit.count(bytes) + " bytes";
    }
  }

  static final RecordSchema<Totals> TOTALS =
      new RecordSchema<>(
          null,
          List.of(
              Field.data("objects", Unit.COUNT, Totals::objects),
              Field.data("bytes", Unit.COUNT, Totals::bytes),
              Field.<Totals>data(
                      "problems",
                      Unit.WORDS,
                      t ->
                          t.problems().isEmpty()
                              ? null
                              : t.problems().first().stream().map(HeapProblem::describe).toList())
                  .optional(),
              Field.<Totals>data("problemCounts", Unit.TEXT, t -> t.problems().countsByName())
                  .optional(),
              Field.<Totals>data(
                      "bytesNotWalked",
                      Unit.COUNT,
                      t -> t.problems().isEmpty() ? null : t.problems().bytesNotWalked())
                  .optional(),
              Field.of("total", "", 0, Unit.TEXT, (Totals t) -> null)
                  .cell(Totals::line)
                  .only(Field.Shown.TABLE)));

  /** A string value's count and total size. */
  record StringRow(String value, long count, long totalSize) {}

  /** How much of a string's text {@code -strings} shows. */
  static final int STRING_SHOWN = 200;

  private static final RecordSchema<StringRow> STRINGS =
      new RecordSchema<StringRow>(
              null,
              List.of(
                  Field.of("count", "COUNT", 0, Unit.COUNT, StringRow::count),
                  Field.of("totalSize", "TOTALSIZE", 0, Unit.COUNT, StringRow::totalSize),
                  Field.of("value", "VALUE", 0, Unit.TEXT, StringRow::value)))
          .withPriority(List.of("value", "count"));

  /** Walks the heap and draws what {@code filter} keeps in {@code shape}. */
  static void show(AnalyzeContext context, Filter filter, Shape shape) {
    ClrHeap p = context.heap();
    if (shape == Shape.STATISTICS && filter.everything()) {
      // The model's own per-type count: the fastest walk there is.
      HeapStatistics stats = p.statistics();
      List<TypeRow> rows = new ArrayList<>();
      long objects = 0;
      long bytes = 0;
      for (HeapStatistics.TypeStat s : stats.bySize()) {
        rows.add(new TypeRow(s.type(), s.count(), s.totalSize()));
        objects += s.count();
        bytes += s.totalSize();
      }
      context.show(statistics(rows, new Totals(objects, bytes, stats.walk().problems())));
      warnAbout(context, stats.walk());
      return;
    }
    if (shape == Shape.STRINGS) {
      strings(context, filter);
      return;
    }
    TypeTally tally = new TypeTally();
    Renderer.RecordSink<Listed> sink =
        shape == Shape.STATISTICS
            ? null
            : context
                .renderer()
                .records(
                    Renderer.Stream.live(shape == Shape.ADDRESSES ? ADDRESS : OBJECT)
                        .inDocument(Map.of(), "objects")
                        .buffered());
    if (sink != null) {
      sink.start();
    }
    WalkSummary walk =
        p.walk(
            s -> filter.generation() == null || mayHold(s, filter.generation()),
            o -> {
              if (!filter.keeps(o)) {
                return;
              }
              tally.add(o.type(), o.size());
              if (sink != null) {
                sink.write(new Listed(o.address(), o.type(), o.size(), o.generation()));
              }
            });
    List<TypeRow> rows = new ArrayList<>();
    long objects = 0;
    long bytes = 0;
    for (ClrType t : tally.types()) {
      long[] c = tally.of(t);
      rows.add(new TypeRow(t, c[0], c[1]));
      objects += c[0];
      bytes += c[1];
    }
    rows.sort(
        Comparator.comparingLong(TypeRow::totalSize)
            .thenComparingLong(TypeRow::count)
            .thenComparing(r -> r.type().name()));
    Report summary =
        shape == Shape.ADDRESSES
            ? null
            : statistics(rows, new Totals(objects, bytes, walk.problems()));
    if (sink == null) {
      context.show(summary);
    } else {
      sink.finish(summary);
    }
    warnAbout(context, walk);
  }

  private static boolean mayHold(dev.clrscope.dac.HeapSegment s, Generation g) {
    return s.kind() == dev.clrscope.dac.SegmentKind.EPHEMERAL || s.generationOf(s.start()) == g;
  }

  private static Report statistics(List<TypeRow> rows, Totals totals) {
    return Report.builder()
        .rows("types", "Statistics:", STAT, rows)
        .primary()
        .values(TOTALS, totals)
        .build();
  }

  private static void strings(AnalyzeContext context, Filter filter) {
    ClrHeap p = context.heap();
    ClrType string = p.runtime().stringType();
    Map<String, long[]> byValue = new HashMap<>();
    WalkSummary walk =
        p.walk(
            o -> {
              if (o.type() != string || !filter.keeps(o)) {
                return;
              }
              String text = o.toObject().asString();
              String shown =
                  text.length() > STRING_SHOWN ? text.substring(0, STRING_SHOWN) + "..." : text;
              long[] c = byValue.computeIfAbsent(shown, k -> new long[2]);
              c[0]++;
              c[1] += o.size();
            });
    List<StringRow> rows = new ArrayList<>(byValue.size());
    long objects = 0;
    long bytes = 0;
    for (Map.Entry<String, long[]> e : byValue.entrySet()) {
      rows.add(new StringRow(e.getKey(), e.getValue()[0], e.getValue()[1]));
      objects += e.getValue()[0];
      bytes += e.getValue()[1];
    }
    rows.sort(
        Comparator.comparingLong(StringRow::totalSize)
            .thenComparingLong(StringRow::count)
            .thenComparing(StringRow::value));
    context.show(
        Report.builder()
            .rows("strings", null, STRINGS, rows)
            .primary()
            .values(TOTALS, new Totals(objects, bytes, walk.problems()))
            .build());
    warnAbout(context, walk);
  }

  /**
   * Says on stderr where the walk could not go on and what it left, so a partial answer is never
   * taken as whole.
   */
  static void warnAbout(AnalyzeContext context, WalkSummary walk) {
    HeapProblems problems = walk.problems();
    if (problems.isEmpty()) {
      return;
    }
    for (HeapProblem problem : problems.first()) {
      context.note("warning: " + problem.describe());
    }
    if (problems.count() > problems.first().size()) {
      context.note(
          "warning: and "
              + (problems.count() - problems.first().size())
              + " more segments were cut short");
    }
    context.heapNotWhole(problems);
  }
}
