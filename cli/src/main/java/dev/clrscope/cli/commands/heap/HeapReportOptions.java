package dev.clrscope.cli.commands.heap;

import dev.clrscope.cli.options.FormatOption;
import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.heapwalk.HeapSnapshot;
import dev.clrscope.heapwalk.TypeStatistics;
import java.io.PrintStream;
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
              Field.of("totalSize", "TOTAL SIZE", 0, Unit.COUNT, TypeStatistics::totalSize),
              Field.of("retainedSize", "RETAINED", 0, Unit.COUNT, TypeStatistics::retainedSize),
              Field.of("type", "TYPE", 0, Unit.TEXT, TypeStatistics::type)));

  /** A row of the objects no root reaches: they retain nothing. */
  static final RecordSchema<TypeStatistics> UNREACHABLE =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("count", "COUNT", 0, Unit.COUNT, TypeStatistics::count),
              Field.of("totalSize", "TOTAL SIZE", 0, Unit.COUNT, TypeStatistics::totalSize),
              Field.of("type", "TYPE", 0, Unit.TEXT, TypeStatistics::type)));

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
   * Prints the report: the types on {@code out}, a summary line on {@code err} that starts with
   * {@code source} ({@code GC 4 walked}, {@code file.gcdump holds}).
   */
  void print(HeapSnapshot snapshot, String source, PrintStream out, PrintStream err) {
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
    err.println(
        String.format(
            Locale.ROOT,
            "%s %,d objects of %,d types, %,d bytes, %,d references, %,d roots%s%s",
            source,
            snapshot.objectCount(),
            rows.size(),
            snapshot.totalSize(),
            snapshot.referenceCount(),
            snapshot.rootCount(),
            snapshot.unreachableCount() > 0
                ? String.format(
                    Locale.ROOT,
                    "; %,d objects not reachable from those roots (their sizes are retained"
                        + " by none)",
                    snapshot.unreachableCount())
                : "",
            shown.size() < rows.size() ? "; showing " + shown.size() + " types" : ""));
    snapshot
        .generationSizes()
        .ifPresent(
            g -> {
              long gc = 0;
              for (long x : g) {
                gc += x;
              }
              err.println(
                  String.format(
                      Locale.ROOT,
                      "The GC's own count after that GC: %,d bytes (gen0 %,d, gen1 %,d, gen2 %,d,"
                          + " LOH %,d, POH %,d); the walk's objects come to %,d: the rest is free"
                          + " space between objects, and frozen objects (string literals) count"
                          + " in the walk but in no generation.",
                      gc,
                      g[0],
                      g[1],
                      g[2],
                      g[3],
                      g[4],
                      snapshot.totalSize()));
            });
    List<TypeStatistics> unreachable =
        snapshot.unreachableTypeStatistics().stream()
            .filter(r -> selection.matches(r.type()))
            .limit(selection.limit())
            .toList();
    Report.Builder report =
        Report.builder().values(HEAD, snapshot).rows("types", null, SCHEMA, shown).primary();
    if (!unreachable.isEmpty()) {
      report.rows(
          "unreachable",
          "Not reachable from any root (garbage the GC has not collected yet):",
          UNREACHABLE,
          unreachable);
    }
    format.renderer(out, err).report(report.build());
  }

  /** What the report says of the whole snapshot (JSON only: stderr says it to a person). */
  private static final RecordSchema<HeapSnapshot> HEAD =
      new RecordSchema<>(
          null,
          List.of(
              Field.<HeapSnapshot>data("gc", Unit.ID, s -> s.gcNumber() >= 0 ? s.gcNumber() : null)
                  .optional(),
              Field.data("objects", Unit.COUNT, HeapSnapshot::objectCount),
              Field.data("totalSize", Unit.COUNT, HeapSnapshot::totalSize),
              Field.data("unreachableObjects", Unit.COUNT, HeapSnapshot::unreachableCount),
              Field.data("unreachableSize", Unit.COUNT, s -> s.totalSize() - s.reachableSize()),
              Field.data("problems", Unit.WORDS, HeapSnapshot::problems),
              Field.<HeapSnapshot>data(
                      "problemCounts",
                      Unit.TEXT,
                      s -> dev.clrscope.dac.HeapProblems.of(s.walkProblems()).countsByName())
                  .optional(),
              Field.<HeapSnapshot>data(
                      "bytesNotWalked",
                      Unit.COUNT,
                      s ->
                          s.walkProblems().heapNotWhole()
                              ? s.walkProblems().bytesNotWalked()
                              : null)
                  .optional(),
              Field.<HeapSnapshot>data(
                      "gcGenerationSizes",
                      Unit.TEXT,
                      s ->
                          s.generationSizes()
                              .map(
                                  g ->
                                      Map.of(
                                          "gen0", g[0], "gen1", g[1], "gen2", g[2], "loh", g[3],
                                          "poh", g[4]))
                              .orElse(null))
                  .optional()));
}
