package dev.clrscope.cli.commands.heap;

import dev.clrscope.cli.options.FormatOption;
import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.heapwalk.HeapSnapshot;
import dev.clrscope.heapwalk.TypeStatistics;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The per-type report of a heap snapshot, live or from a file: which types, in which order, in
 * which format.
 */
public final class HeapReportOptions {
  @Spec(Spec.Target.MIXEE)
  CommandSpec mixee;

  @Mixin FormatOption format;

  @Mixin TypeSelection selection;

  @Option(
      names = "--min-count",
      paramLabel = "N",
      defaultValue = "0",
      description = "Only types with at least N objects.")
  long minCount;

  @Option(
      names = "--sort",
      paramLabel = "retained|size|count",
      defaultValue = "retained",
      description = "Biggest first by retained size (default), total size or count.")
  String sort = "retained";

  /** One row of the report (analyze's {@code retained} has its rows alike). */
  public static final RecordSchema<TypeStatistics> SCHEMA =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("count", "COUNT", 0, Unit.COUNT, TypeStatistics::count),
              Field.of("totalSize", "TOTAL SIZE", 0, Unit.BYTES, TypeStatistics::totalSize),
              Field.of("retainedSize", "RETAINED", 0, Unit.BYTES, TypeStatistics::retainedSize),
              Field.of("type", "TYPE", 0, Unit.TEXT, TypeStatistics::type)),
          List.of(),
          "type");

  /** A row of the objects no root reaches: they retain nothing. */
  static final RecordSchema<TypeStatistics> UNREACHABLE =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("count", "COUNT", 0, Unit.COUNT, TypeStatistics::count),
              Field.of("totalSize", "TOTAL SIZE", 0, Unit.BYTES, TypeStatistics::totalSize),
              Field.of("type", "TYPE", 0, Unit.TEXT, TypeStatistics::type)),
          List.of(),
          "type");

  /** Checks the options: a usage error names the one that is wrong. */
  void validate() {
    selection.validate();
    if (minCount < 0) {
      throw new ParameterException(mixee.commandLine(), "--min-count takes 0 or more");
    }
    if (!List.of("retained", "size", "count").contains(sort.toLowerCase(Locale.ROOT))) {
      throw new ParameterException(
          mixee.commandLine(), "--sort takes retained, size or count, got " + sort);
    }
  }

  /**
   * The report: what the snapshot holds as a whole ({@code source} first: {@code GC 4 walked},
   * {@code file.gcdump holds}), then its types, then the types no root reaches.
   */
  Report report(HeapSnapshot snapshot, String source) {
    List<TypeStatistics> rows = snapshot.typeStatistics();
    List<TypeStatistics> shown =
        rows.stream()
            .filter(r -> r.count() >= minCount)
            .filter(r -> selection.matches(r.type()))
            .sorted(
                Comparator.comparingLong(
                        switch (sort.toLowerCase(Locale.ROOT)) {
                          case "count" -> TypeStatistics::count;
                          case "size" -> TypeStatistics::totalSize;
                          default -> TypeStatistics::retainedSize;
                        })
                    .reversed()
                    .thenComparing(TypeStatistics::type))
            .limit(selection.limit())
            .toList();
    List<TypeStatistics> unreachable =
        snapshot.unreachableTypeStatistics().stream()
            .filter(r -> selection.matches(r.type()))
            .limit(selection.limit())
            .toList();
    Report.Builder report =
        Report.builder()
            .values(HEAD, new Head(snapshot, source, rows.size(), shown.size()))
            .rows("types", null, SCHEMA, shown)
            .primary();
    if (!unreachable.isEmpty()) {
      report.rows(
          "unreachable",
          "Not reachable from any root (garbage the GC has not collected yet):",
          UNREACHABLE,
          unreachable);
    }
    return report.build();
  }

  /**
   * What a snapshot holds as a whole.
   *
   * @param source where it came from, as the first line starts
   * @param types how many types it has
   * @param shown how many of them the report shows
   */
  record Head(HeapSnapshot s, String source, int types, int shown) {
    /** The first line: the whole heap, and how many types are shown. */
    String line() {
      HeapSnapshot s = s();
      return source
          + " "
          + Unit.count(s.objectCount())
          + " objects of "
          + Unit.count(types)
          + " types, "
          + Unit.bytes(s.totalSize())
          + ", "
          + Unit.count(s.referenceCount())
          + " references, "
          + Unit.count(s.rootCount())
          + " roots"
          + (s.unreachableCount() > 0
              ? "; "
                  + Unit.count(s.unreachableCount())
                  + " objects not reachable from those roots (their sizes are retained by none)"
              : "")
          + (shown < types ? "; showing " + shown + " types" : "");
    }

    /** The GC's own count of its generations, beside the walk's, or null when it is not known. */
    String generations() {
      return s.generationSizes()
          .map(
              g ->
                  "The GC's own count after that GC: "
                      + Unit.bytes(g[0] + g[1] + g[2] + g[3] + g[4])
                      + " (gen0 "
                      + Unit.bytes(g[0])
                      + ", gen1 "
                      + Unit.bytes(g[1])
                      + ", gen2 "
                      + Unit.bytes(g[2])
                      + ", LOH "
                      + Unit.bytes(g[3])
                      + ", POH "
                      + Unit.bytes(g[4])
                      + "); the walk's objects come to "
                      + Unit.bytes(s.totalSize())
                      + ": the rest is free space between objects, and frozen objects (string"
                      + " literals) count in the walk but in no generation.")
          .orElse(null);
    }
  }

  /** What the report says of the whole snapshot: two lines for a person, members in JSON. */
  private static final RecordSchema<Head> HEAD =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("summary", "", 0, Unit.TEXT, Head::line).only(Field.Shown.TABLE),
              Field.of("gcCount", "", 0, Unit.TEXT, Head::generations)
                  .only(Field.Shown.TABLE)
                  .optional(),
              Field.<Head>data("gc", Unit.ID, h -> h.s().gcNumber() >= 0 ? h.s().gcNumber() : null)
                  .optional(),
              Field.data("objects", Unit.COUNT, (Head h) -> h.s().objectCount()),
              Field.data("totalSize", Unit.BYTES, (Head h) -> h.s().totalSize()),
              Field.data("unreachableObjects", Unit.COUNT, (Head h) -> h.s().unreachableCount()),
              Field.data(
                  "unreachableSize",
                  Unit.BYTES,
                  (Head h) -> h.s().totalSize() - h.s().reachableSize()),
              Field.data("problems", Unit.WORDS, (Head h) -> h.s().problems()),
              Field.<Head>data(
                      "problemCounts",
                      Unit.TEXT,
                      h -> dev.clrscope.dac.HeapProblems.of(h.s().walkProblems()).countsByName())
                  .optional(),
              Field.<Head>data(
                      "bytesNotWalked",
                      Unit.BYTES,
                      h ->
                          h.s().walkProblems().heapNotWhole()
                              ? h.s().walkProblems().bytesNotWalked()
                              : null)
                  .optional(),
              Field.<Head>data(
                      "gcGenerationSizes",
                      Unit.TEXT,
                      h ->
                          h.s()
                              .generationSizes()
                              .map(
                                  g ->
                                      Map.of(
                                          "gen0", g[0], "gen1", g[1], "gen2", g[2], "loh", g[3],
                                          "poh", g[4]))
                              .orElse(null))
                  .optional()));
}
