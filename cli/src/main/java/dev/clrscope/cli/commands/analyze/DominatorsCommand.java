package dev.clrscope.cli.commands.analyze;

import dev.clrscope.cli.commands.heap.SharedOwnershipNote;
import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.heapwalk.HeapSnapshot;
import dev.clrscope.heapwalk.HeapSnapshot.Retainer;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code dominators [-top N]}: the objects that retain the most, from the top of the exact graph's
 * dominator tree (each kept alive by roots alone, not by another object), biggest first.
 */
final class DominatorsCommand extends SosCommand {
  static final int DEFAULT_TOP = 20;

  DominatorsCommand() {
    super(
        "dominators",
        List.of(),
        "dominators [-top N]",
        "The objects that retain the most (the top of the dominator tree: what freeing each would"
            + " free), biggest first; "
            + DEFAULT_TOP
            + " without -top",
        SosArgs.Spec.of(Set.of(), Set.of("-top"), 0, 0));
  }

  private static RecordSchema<Retainer> schema(long total) {
    return new RecordSchema<>(
        null,
        List.of(
            Field.of("address", "ADDRESS", 0, Unit.ADDRESS, Retainer::address),
            Field.of("retained", "RETAINED", 0, Unit.COUNT, Retainer::retained),
            Field.of(
                    "percent",
                    "%",
                    0,
                    Unit.TEXT,
                    (Retainer r) ->
                        String.format(
                            Locale.ROOT, "%.2f", 100.0 * r.retained() / Math.max(1, total)))
                .only(Field.Shown.TABLE),
            Field.of("size", "SIZE", 0, Unit.COUNT, Retainer::size),
            Field.of("type", "TYPE", 0, Unit.TEXT, Retainer::type)));
  }

  @Override
  void run(AnalyzeContext context, SosArgs args) {
    int top = args.countOption("-top", 1, DEFAULT_TOP);
    HeapSnapshot graph = context.heapGraph();
    long reachable = graph.reachableSize();
    List<Retainer> rows = graph.biggestRetainers(1, 0, top);
    Report.Builder report =
        Report.builder()
            .rows("dominators", null, schema(reachable), rows)
            .note(
                "Of "
                    + Unit.count(reachable)
                    + " bytes reachable from roots ("
                    + Unit.count(graph.unreachableCount())
                    + " objects reachable from none).");
    String shared =
        SharedOwnershipNote.of(
            graph,
            rows,
            type ->
                "`retained -type "
                    + type
                    + "` shows what they retain, `paths` of one of them (`dumpheap -type "
                    + type
                    + "`) where they are held from.");
    if (shared != null) {
      report.note(shared);
    }
    context.show(report.build());
  }
}
