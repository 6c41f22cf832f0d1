package dev.clrscope.cli.commands.analyze;

import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.dac.ClrHeap;
import dev.clrscope.dac.SyncBlock;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** {@code syncblk}: the monitors (lock statements) held, with owner and waiters. */
final class SyncBlk extends SosCommand {
  SyncBlk() {
    super(
        "syncblk",
        List.of(),
        "syncblk [-all]",
        "The sync blocks of locked objects (Monitor, lock statements): the object, the thread"
            + " that owns it, its recursion and how many wait; -all those not owned too",
        SosArgs.Spec.of(Set.of("-all"), Set.of(), 0, 0));
  }

  /** A sync block and its object's type. */
  record Row(SyncBlock block, String type) {}

  private static final RecordSchema<Row> BLOCKS =
      new RecordSchema<Row>(
              null,
              List.of(
                  Field.of("index", "INDEX", 0, Unit.ID, (Row r) -> r.block().index()),
                  Field.of(
                      "syncBlock", "SYNCBLOCK", 0, Unit.ADDRESS, (Row r) -> r.block().address()),
                  Field.of(
                      "monitorHeld",
                      "MONITORHELD",
                      0,
                      Unit.COUNT,
                      (Row r) -> r.block().monitorHeld()),
                  Field.of(
                      "recursion", "RECURSION", 0, Unit.COUNT, (Row r) -> r.block().recursion()),
                  Field.of(
                          "owningThread",
                          "OWNING THREAD",
                          0,
                          Unit.ADDRESS,
                          (Row r) -> r.block().isOwned() ? r.block().owningThread() : null)
                      .optional(),
                  Field.of(
                          "owningOsThreadId",
                          "OWNER OSID",
                          0,
                          Unit.ID,
                          (Row r) -> r.block().isOwned() ? r.block().owningOsThreadId() : null)
                      .optional(),
                  Field.of("waiters", "WAITERS", 0, Unit.COUNT, (Row r) -> r.block().waiters()),
                  Field.of("object", "OBJECT", 0, Unit.ADDRESS, (Row r) -> r.block().object()),
                  Field.of("type", "TYPE", 0, Unit.TEXT, Row::type)))
          .withPriority(List.of("owningOsThreadId", "object", "type", "waiters"));

  @Override
  void run(AnalyzeContext context, SosArgs args) {
    ClrHeap p = context.heap();
    List<Row> rows = new ArrayList<>();
    for (SyncBlock b : p.runtime().syncBlocks()) {
      if (b.isOwned() || args.has("-all")) {
        rows.add(new Row(b, GcRoot.typeName(p, b.object())));
      }
    }
    context.show(
        Report.builder()
            .rows(null, null, BLOCKS, rows)
            .note(rows.isEmpty() ? "No lock is held." : rows.size() + " sync blocks.")
            .build());
  }
}
