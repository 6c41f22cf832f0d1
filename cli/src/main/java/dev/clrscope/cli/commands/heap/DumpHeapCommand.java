package dev.clrscope.cli.commands.heap;

import dev.clrscope.cli.attach.AttachedTarget;
import dev.clrscope.cli.options.FormatOption;
import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.RecordStream;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.heapwalk.HeapSnapshot;
import dev.clrscope.heapwalk.TypeStatistics;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code clrscope dump-heap}: a snapshot of the managed heap from outside the process, as
 * dotnet-gcdump takes it (the runtime walks the heap during one GC it is asked to force), reported
 * per type: how many objects and their total size.
 */
@Command(
    name = "dump-heap",
    mixinStandardHelpOptions = true,
    subcommands = DumpHeapRootsCommand.class,
    description = {
      "Walk the managed heap of a .NET process (the runtime forces one full, blocking GC to do it)"
          + " and print, per type, how many objects it holds and their total size."
    })
public final class DumpHeapCommand extends HeapCommand {

  @Mixin FormatOption format;

  @Option(
      names = "--top",
      paramLabel = "N",
      defaultValue = "30",
      description = "Show the N biggest types (default: ${DEFAULT-VALUE}; 0 for all).")
  int top = 30;

  @Option(
      names = "--type",
      paramLabel = "REGEX",
      description = "Only types whose name contains a match of REGEX.")
  String typeFilter;

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

  private Pattern typePattern;

  /** One row of the report. */
  static final RecordSchema<TypeStatistics> SCHEMA =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("count", "COUNT", 12, Unit.COUNT, TypeStatistics::count),
              Field.of("totalSize", "TOTAL SIZE", 14, Unit.COUNT, TypeStatistics::totalSize),
              Field.of("retainedSize", "RETAINED", 14, Unit.COUNT, TypeStatistics::retainedSize),
              Field.of("type", "TYPE", 4, Unit.TEXT, TypeStatistics::type)));

  @Override
  protected void validate() {
    super.validate();
    if (top < 0 || minCount < 0) {
      throw new ParameterException(spec.commandLine(), "--top and --min-count take 0 or more");
    }
    if (!List.of("retained", "size", "count").contains(sort.toLowerCase(Locale.ROOT))) {
      throw new ParameterException(
          spec.commandLine(), "--sort takes retained, size or count, got " + sort);
    }
    if (typeFilter != null) {
      typePattern = typePattern(typeFilter);
    }
  }

  @Override
  protected int run(AttachedTarget attached) {
    report(snapshot(attached));
    return 0;
  }

  private void report(HeapSnapshot snapshot) {
    List<TypeStatistics> rows = snapshot.typeStatistics();
    List<TypeStatistics> shown =
        rows.stream()
            .filter(r -> r.count() >= minCount)
            .filter(r -> typePattern == null || typePattern.matcher(r.type()).find())
            .sorted(
                Comparator.comparingLong(
                        switch (sort.toLowerCase(Locale.ROOT)) {
                          case "count" -> TypeStatistics::count;
                          case "size" -> TypeStatistics::totalSize;
                          default -> TypeStatistics::retainedSize;
                        })
                    .reversed()
                    .thenComparing(TypeStatistics::type))
            .limit(top == 0 ? Long.MAX_VALUE : top)
            .toList();
    err()
        .println(
            String.format(
                Locale.ROOT,
                "GC %d walked %,d objects of %,d types, %,d bytes, %,d references, %,d roots%s%s",
                snapshot.gcNumber(),
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
    RecordStream<TypeStatistics> out =
        new RecordStream<>(
            out(),
            SCHEMA,
            switch (format.format()) {
              case json -> RecordStream.Form.JSON_DOCUMENT;
              case csv -> RecordStream.Form.CSV;
              default -> RecordStream.Form.TABLE;
            },
            false);
    java.util.Map<String, Object> head = new java.util.LinkedHashMap<>();
    head.put("gc", snapshot.gcNumber());
    head.put("objects", snapshot.objectCount());
    head.put("totalSize", snapshot.totalSize());
    head.put("problems", snapshot.problems());
    out.start(head, "types");
    shown.forEach(out::write);
    out.finish(java.util.Map.of());
  }
}
