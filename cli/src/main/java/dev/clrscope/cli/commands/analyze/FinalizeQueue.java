package dev.clrscope.cli.commands.analyze;

import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.dac.ClrHeap;
import dev.clrscope.dac.ClrObject;
import dev.clrscope.dac.ClrType;
import dev.clrscope.dac.FinalizerEntry;
import dev.clrscope.dac.TargetException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/** {@code finalizequeue}: the objects registered for finalization, and those ready for it. */
final class FinalizeQueue extends SosCommand {
  FinalizeQueue() {
    super(
        "finalizequeue",
        List.of("fq"),
        "finalizequeue [-allready]",
        "The objects registered for finalization and those ready for it (no longer reachable,"
            + " waiting for the finalizer thread), per type; -allready lists the ready ones",
        SosArgs.Spec.of(Set.of("-allready"), Set.of(), 0, 0));
  }

  /** How many are registered and ready. */
  record Counts(long registered, long ready) {}

  private static final RecordSchema<Counts> COUNTS =
      new RecordSchema<>(
          null,
          List.of(
              Field.of(
                  "registered", "Registered for finalization:", 0, Unit.COUNT, Counts::registered),
              Field.of("ready", "Ready for finalization:", 0, Unit.COUNT, Counts::ready)));

  /** A type's objects in the queue. */
  record TypeRow(ClrType type, long count, long totalSize, long ready) {}

  private static final RecordSchema<TypeRow> TYPES =
      new RecordSchema<TypeRow>(
              null,
              List.of(
                  Field.of(
                      "methodTable", "MT", 0, Unit.ADDRESS, (TypeRow r) -> r.type().methodTable()),
                  Field.of("count", "COUNT", 0, Unit.COUNT, TypeRow::count),
                  Field.of("ready", "READY", 0, Unit.COUNT, TypeRow::ready),
                  Field.of("totalSize", "TOTALSIZE", 0, Unit.COUNT, TypeRow::totalSize),
                  Field.of("type", "CLASS NAME", 0, Unit.TEXT, (TypeRow r) -> r.type().name())))
          .withPriority(List.of("type", "count", "ready"));

  /** An object ready for finalization. */
  record Ready(long address, String type) {}

  private static final RecordSchema<Ready> READY =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("address", "ADDRESS", 0, Unit.ADDRESS, Ready::address),
              Field.of("type", "TYPE", 0, Unit.TEXT, Ready::type)));

  @Override
  void run(AnalyzeContext context, SosArgs args) {
    ClrHeap p = context.heap();
    TypeTally tally = new TypeTally();
    List<Ready> ready = new ArrayList<>();
    long registered = 0;
    long readyCount = 0;
    for (FinalizerEntry e : p.runtime().finalizerQueue()) {
      ClrObject o;
      try {
        o = p.object(e.object());
      } catch (TargetException notAnObject) {
        continue;
      }
      long[] c = tally.add(o.type(), o.size());
      if (e.readyForFinalization()) {
        c[2]++;
        readyCount++;
        ready.add(new Ready(o.address(), o.type().name()));
      } else {
        registered++;
      }
    }
    List<TypeRow> rows = new ArrayList<>();
    for (ClrType t : tally.types()) {
      long[] c = tally.of(t);
      rows.add(new TypeRow(t, c[0], c[1], c[2]));
    }
    rows.sort(Comparator.comparingLong(TypeRow::totalSize).thenComparing(r -> r.type().name()));
    Report.Builder report =
        Report.builder()
            .values(COUNTS, new Counts(registered, readyCount))
            .rows("types", "Statistics:", TYPES, rows)
            .primary();
    if (args.has("-allready")) {
      report.rows("ready", "Ready for finalization:", READY, ready);
    }
    context.show(report.build());
  }
}
