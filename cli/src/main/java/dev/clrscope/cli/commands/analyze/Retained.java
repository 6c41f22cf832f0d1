package dev.clrscope.cli.commands.analyze;

import dev.clrscope.cli.commands.heap.HeapReportOptions;
import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.dac.ClrObject;
import dev.clrscope.heapwalk.HeapSnapshot;
import dev.clrscope.heapwalk.TypeStatistics;
import java.util.List;
import java.util.Set;

/**
 * {@code retained ADDR} or {@code retained -type T}: what freeing an object (or every object of a
 * type) would free, from the exact graph's dominator tree; unlike {@code objsize}, what something
 * else also holds is not counted.
 */
final class Retained extends SosCommand {
  Retained() {
    super(
        "retained",
        List.of(),
        "retained ADDR | retained -type T",
        "What freeing an object would free (everything only it keeps alive, by type), or per type"
            + " whose name contains T: count, total size and retained size",
        SosArgs.Spec.of(Set.of(), Set.of("-type"), 0, 1));
  }

  /** The answer for one object. */
  record One(long address, String type, long size, long retained, boolean reachable) {
    String line() {
      return Unit.address(address)
          + " ("
          + type
          + (reachable
              ? ", " + Unit.count(size) + " bytes) retains " + Unit.count(retained) + " bytes"
              : ") is reachable from no root: garbage the GC has not collected yet");
    }
  }

  private static final RecordSchema<One> ONE =
      new RecordSchema<>(
          null,
          List.of(
              Field.data("address", Unit.ADDRESS, One::address),
              Field.data("type", Unit.TEXT, One::type),
              Field.data("size", Unit.COUNT, One::size),
              Field.data("retained", Unit.COUNT, One::retained),
              Field.data("reachable", Unit.TEXT, One::reachable),
              Field.of("line", "", 0, Unit.TEXT, (One o) -> null)
                  .cell(One::line)
                  .only(Field.Shown.TABLE)));

  /** A row per type, as dump-heap's report has it: of a retained set, or of the types asked for. */
  private static final RecordSchema<TypeStatistics> TYPES = HeapReportOptions.SCHEMA;

  @Override
  void run(AnalyzeContext context, SosArgs args) {
    String type = args.value("-type");
    if ((type == null) == args.positional().isEmpty()) {
      throw args.usage("give ADDR or -type T");
    }
    HeapSnapshot graph = context.heapGraph();
    if (type != null) {
      List<TypeStatistics> rows =
          graph.typeStatistics().stream().filter(t -> t.type().contains(type)).toList();
      context.show(
          Report.builder()
              .rows("types", null, TYPES, rows)
              .note(
                  rows.isEmpty()
                      ? "No live object's type contains " + type + "."
                      : "Retained: what freeing every object of the type would free.")
              .build());
      return;
    }
    ClrObject o = context.heap().object(args.address(0));
    int i = graph.indexOf(o.address());
    if (i < 0) {
      throw new dev.clrscope.dac.TargetException(
          dev.clrscope.dac.TargetException.Problem.NOT_AN_OBJECT,
          Unit.address(o.address()) + " is not in the heap's graph");
    }
    One one =
        new One(
            o.address(),
            o.type().name(),
            graph.sizeOf(i),
            graph.retainedSize(i),
            graph.isReachable(i));
    context.show(
        Report.builder()
            .values(ONE, one)
            .rows("retainedSet", "What it alone keeps alive, by type:", TYPES, graph.retainedSet(i))
            .build());
  }
}
