package dev.clrscope.cli.commands.alloc;

import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.FrameFields;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.monitor.alloc.AllocationSummary;
import dev.clrscope.monitor.alloc.StackAllocations;
import dev.clrscope.monitor.alloc.TypeAllocations;
import dev.clrscope.symbols.Frame;
import java.util.ArrayList;
import java.util.List;

/** What {@code alloc} returns: the totals, the top types, and the top allocating stacks. */
final class AllocOutput {
  private AllocOutput() {}

  private static final RecordSchema<AllocationSummary> TOTALS =
      new RecordSchema<>(
          null,
          List.of(
              Field.data("ticks", Unit.COUNT, AllocationSummary::ticks),
              Field.data("estimatedBytes", Unit.COUNT, AllocationSummary::estimatedBytes),
              Field.data("ticksWithoutStack", Unit.COUNT, AllocationSummary::ticksWithoutStack),
              Field.of("summary", "", 0, Unit.TEXT, (AllocationSummary s) -> null)
                  .cell(
                      s ->
                          Unit.count(s.ticks())
                              + " allocation ticks, standing for about "
                              + Unit.bytes(s.estimatedBytes())
                              + " allocated"
                              + (s.ticksWithoutStack() > 0
                                  ? " (" + Unit.count(s.ticksWithoutStack()) + " without a stack)"
                                  : ""))
                  .only(Field.Shown.TABLE)));

  /** A row of the types table: the type's share of everything estimated. */
  private record TypeRow(TypeAllocations t, long allBytes) {}

  private static final RecordSchema<TypeRow> TYPES =
      new RecordSchema<TypeRow>(
              null,
              List.of(
                  Field.of("type", "TYPE", 0, Unit.TEXT, (TypeRow r) -> r.t().type()),
                  Field.of("heap", "HEAP", 0, Unit.TEXT, (TypeRow r) -> heap(r.t().large())),
                  Field.of("ticks", "TICKS", 0, Unit.COUNT, (TypeRow r) -> r.t().ticks()),
                  Field.of(
                      "sampledBytes",
                      "SAMPLED",
                      0,
                      Unit.BYTES,
                      (TypeRow r) -> r.t().sampledBytes()),
                  Field.of(
                      "estimatedBytes",
                      "EST. BYTES",
                      0,
                      Unit.BYTES,
                      (TypeRow r) -> r.t().estimatedBytes()),
                  Field.of(
                      "estimatedPercent",
                      "EST. %",
                      0,
                      Unit.PERCENT,
                      (TypeRow r) -> Unit.percent(r.t().estimatedBytes(), r.allBytes()))))
          .withPriority(List.of("type", "estimatedBytes", "estimatedPercent", "ticks", "heap"))
          .withKey("type");

  /** A row of the stacks table, ranked. */
  private record StackRow(int rank, StackAllocations s, long allBytes) {}

  private static final RecordSchema<StackRow> STACKS =
      new RecordSchema<StackRow>(
              null,
              List.of(
                  Field.of("rank", "#", 0, Unit.COUNT, StackRow::rank).only(Field.Shown.TABLE),
                  Field.of("heap", "HEAP", 0, Unit.TEXT, (StackRow r) -> heap(r.s().large())),
                  Field.of("topType", "MOSTLY", 0, Unit.TEXT, (StackRow r) -> r.s().topType()),
                  Field.of("ticks", "TICKS", 0, Unit.COUNT, (StackRow r) -> r.s().ticks()),
                  Field.of(
                      "estimatedBytes",
                      "EST. BYTES",
                      0,
                      Unit.BYTES,
                      (StackRow r) -> r.s().estimatedBytes()),
                  Field.of(
                          "estimatedPercent",
                          "EST. %",
                          0,
                          Unit.PERCENT,
                          (StackRow r) -> Unit.percent(r.s().estimatedBytes(), r.allBytes()))
                      .only(Field.Shown.TABLE),
                  Field.<StackRow, Frame>nested(
                      "frames", FrameFields.FRAME, (StackRow r) -> r.s().frames())))
          .withPriority(List.of("rank", "topType", "estimatedBytes", "heap", "ticks"))
          .withKey("topType");

  /** The report of an allocation summary. */
  static Report report(AllocationSummary s) {
    List<TypeRow> types = new ArrayList<>();
    for (TypeAllocations t : s.types()) {
      types.add(new TypeRow(t, s.estimatedBytes()));
    }
    List<StackRow> stacks = new ArrayList<>();
    for (StackAllocations st : s.stacks()) {
      stacks.add(new StackRow(stacks.size() + 1, st, s.estimatedBytes()));
    }
    return Report.builder()
        .values(TOTALS, s)
        .rows("types", null, TYPES, types)
        .primary()
        .rows(
            "stacks",
            "Top allocating stacks",
            STACKS,
            stacks,
            r -> FrameFields.texts(r.s().frames()))
        .build();
  }

  private static String heap(boolean large) {
    return large ? "large" : "small";
  }
}
