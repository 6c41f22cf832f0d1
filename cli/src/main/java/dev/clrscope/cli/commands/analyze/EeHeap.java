package dev.clrscope.cli.commands.analyze;

import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.dac.ClrHeap;
import dev.clrscope.dac.GcHeap;
import dev.clrscope.dac.Generation;
import dev.clrscope.dac.HeapSegment;
import dev.clrscope.dac.RuntimeInfo;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/** {@code eeheap -gc}: the GC heaps, their generations and segments (regions). */
final class EeHeap extends SosCommand {
  EeHeap() {
    super(
        "eeheap",
        List.of(),
        "eeheap [-gc]",
        "The GC heaps: workstation or server, regions or segments, each heap's generations and"
            + " segments (regions) with their addresses, allocated and committed sizes",
        SosArgs.Spec.of(Set.of("-gc", "-loader"), Set.of(), 0, 0));
  }

  /** The GC on its own. */
  record Gc(RuntimeInfo runtime, long allocated, long committed) {}

  private static final RecordSchema<Gc> GC =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("gcMode", "GC mode:", 0, Unit.TEXT, (Gc g) -> g.runtime().gcMode()),
              Field.of(
                  "layout",
                  "Layout:",
                  0,
                  Unit.TEXT,
                  (Gc g) -> g.runtime().regions() ? "regions" : "segments"),
              Field.of(
                  "heaps", "Number of GC heaps:", 0, Unit.COUNT, (Gc g) -> g.runtime().heapCount()),
              Field.of("allocated", "GC allocated size:", 0, Unit.BYTES, Gc::allocated),
              Field.of("committed", "GC committed size:", 0, Unit.BYTES, Gc::committed)));

  /** A generation's size on one heap. */
  record GenerationRow(int heap, Generation generation, long size) {}

  private static final RecordSchema<GenerationRow> GENERATIONS =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("heap", "HEAP", 0, Unit.ID, GenerationRow::heap),
              Field.of(
                  "generation",
                  "GENERATION",
                  0,
                  Unit.TEXT,
                  (GenerationRow g) -> g.generation().label()),
              Field.of("size", "SIZE", 0, Unit.BYTES, GenerationRow::size)));

  private static final RecordSchema<HeapSegment> SEGMENTS =
      new RecordSchema<HeapSegment>(
              null,
              List.of(
                  Field.of("heap", "HEAP", 0, Unit.ID, HeapSegment::heap),
                  Field.of(
                      "kind",
                      "KIND",
                      0,
                      Unit.TEXT,
                      (HeapSegment s) -> s.kind().name().toLowerCase(Locale.ROOT)),
                  Field.of("segment", "SEGMENT", 0, Unit.ADDRESS, HeapSegment::address),
                  Field.of("begin", "BEGIN", 0, Unit.ADDRESS, HeapSegment::start),
                  Field.of("allocated", "ALLOCATED", 0, Unit.ADDRESS, HeapSegment::end),
                  Field.of("committed", "COMMITTED", 0, Unit.ADDRESS, HeapSegment::committed),
                  Field.of("reserved", "RESERVED", 0, Unit.ADDRESS, HeapSegment::reserved)
                      .only(Field.Shown.DATA),
                  Field.of(
                      "allocatedSize",
                      "ALLOCATED SIZE",
                      0,
                      Unit.BYTES,
                      HeapSegment::allocatedBytes),
                  Field.of(
                      "committedSize",
                      "COMMITTED SIZE",
                      0,
                      Unit.BYTES,
                      HeapSegment::committedBytes)))
          .withPriority(List.of("heap", "kind", "begin", "allocatedSize"));

  @Override
  void run(AnalyzeContext context, SosArgs args) {
    if (args.has("-loader")) {
      throw args.usage("only the GC heap is shown (eeheap -gc); the loader heaps are not read");
    }
    ClrHeap p = context.heap();
    List<HeapSegment> segments = new ArrayList<>();
    List<GenerationRow> generations = new ArrayList<>();
    long allocated = 0;
    long committed = 0;
    for (GcHeap h : p.heaps()) {
      segments.addAll(h.segments());
      for (Generation g : Generation.values()) {
        if (g != Generation.FROZEN) {
          generations.add(new GenerationRow(h.index(), g, h.sizeOf(g)));
        }
      }
      for (HeapSegment s : h.segments()) {
        allocated += s.allocatedBytes();
        committed += s.committedBytes();
      }
    }
    context.show(
        Report.builder()
            .values(GC, new Gc(p.runtime().info(), allocated, committed))
            .rows("generations", null, GENERATIONS, generations)
            .rows("segments", null, SEGMENTS, segments)
            .primary()
            .build());
  }
}
