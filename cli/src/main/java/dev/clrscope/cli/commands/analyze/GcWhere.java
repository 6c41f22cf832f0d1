package dev.clrscope.cli.commands.analyze;

import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.dac.ClrHeap;
import dev.clrscope.dac.ClrObject;
import dev.clrscope.dac.HeapSegment;
import dev.clrscope.dac.TargetException;
import java.util.List;
import java.util.Locale;

/** {@code gcwhere ADDR}: where an address is in the GC heap. */
final class GcWhere extends SosCommand {
  GcWhere() {
    super(
        "gcwhere",
        List.of(),
        "gcwhere ADDR",
        "Where an address is in the GC heap: its heap, generation and segment (region), and the"
            + " object that holds it",
        SosArgs.Spec.one());
  }

  /** The answer. */
  record Where(long address, HeapSegment segment, ClrObject object) {}

  private static final RecordSchema<Where> WHERE =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("address", "Address:", 0, Unit.ADDRESS, Where::address),
              Field.of("heap", "Heap:", 0, Unit.ID, (Where w) -> w.segment().heap()),
              Field.of(
                  "generation",
                  "Generation:",
                  0,
                  Unit.TEXT,
                  (Where w) -> w.segment().generationOf(w.address()).label()),
              Field.of("segment", "Segment:", 0, Unit.ADDRESS, (Where w) -> w.segment().address()),
              Field.of(
                  "segmentKind",
                  "Segment kind:",
                  0,
                  Unit.TEXT,
                  (Where w) -> w.segment().kind().name().toLowerCase(Locale.ROOT)),
              Field.of("begin", "Begin:", 0, Unit.ADDRESS, (Where w) -> w.segment().start()),
              Field.of("allocated", "Allocated:", 0, Unit.ADDRESS, (Where w) -> w.segment().end()),
              Field.of(
                  "committed", "Committed:", 0, Unit.ADDRESS, (Where w) -> w.segment().committed()),
              Field.of(
                  "reserved", "Reserved:", 0, Unit.ADDRESS, (Where w) -> w.segment().reserved()),
              Field.of(
                      "object",
                      "Object:",
                      0,
                      Unit.ADDRESS,
                      (Where w) -> w.object() == null ? null : w.object().address())
                  .optional(),
              Field.of(
                      "objectType",
                      "Object type:",
                      0,
                      Unit.TEXT,
                      (Where w) -> w.object() == null ? null : w.object().type().name())
                  .optional()));

  @Override
  void run(AnalyzeContext context, SosArgs args) {
    ClrHeap p = context.heap();
    long address = args.address(0);
    HeapSegment s = p.segmentOf(address);
    if (s == null) {
      throw new TargetException(
          TargetException.Problem.NOT_AN_OBJECT,
          "0x"
              + Long.toHexString(address)
              + " is not in the GC heap (eeheap -gc lists its segments)");
    }
    ClrObject o;
    try {
      o = p.objectContaining(address);
    } catch (TargetException e) {
      o = null;
    }
    context.show(Report.record(WHERE, new Where(address, s, o)));
  }
}
