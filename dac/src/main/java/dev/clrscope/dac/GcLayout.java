package dev.clrscope.dac;

import dev.clrscope.dac.TargetException.Problem;
import dev.clrscope.dac.interop.SosDac;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The GC heaps as the DAC describes them when a session opens: per heap its generations and its
 * segments (regions) in the order ClrMD walks them, read once.
 */
final class GcLayout {
  private GcLayout() {}

  /** Reads every GC heap; on the owner thread. */
  static List<GcHeap> read(SosDac sos, SosDac.GcHeapData gc, String target) {
    List<GcHeap> out = new ArrayList<>();
    long[] addresses = gc.serverMode() ? sos.gcHeapList(gc.heapCount()) : new long[] {0};
    for (int i = 0; i < addresses.length; i++) {
      SosDac.HeapDetails d = sos.heapDetails(addresses[i]);
      if (d == null) {
        throw new TargetException(
            Problem.DAC_FAILED, "the DAC cannot read GC heap " + i + " of " + target);
      }
      SosDac.Generation[] gens = sos.generationTable(addresses[i]);
      if (gens == null) {
        gens = d.generations().toArray(new SosDac.Generation[0]);
      }
      List<GcHeap.GenerationStart> starts = new ArrayList<>();
      for (SosDac.Generation g : gens) {
        starts.add(
            new GcHeap.GenerationStart(
                g.startSegment(), g.allocationStart(), g.allocContextPtr(), g.allocContextLimit()));
      }
      boolean regions = gens.length >= 2 && gens[0].startSegment() != gens[1].startSegment();
      List<HeapSegment> segments = new ArrayList<>();
      Set<Long> seen = new HashSet<>();
      seen.add(0L);
      // The order ClrMD walks them in: LOH, generation 2 (with the frozen segments and, with
      // segments, the ephemeral one), regions of 1 and 0, then POH.
      int[] order = regions ? new int[] {3, 2, 1, 0, 4} : new int[] {3, 2, 4};
      for (int g : order) {
        if (g < gens.length) {
          readSegments(sos, i, d, gens, g, regions, seen, segments);
        }
      }
      out.add(
          new GcHeap(
              i, addresses[i], d.allocAllocated(), List.copyOf(starts), List.copyOf(segments)));
    }
    return List.copyOf(out);
  }

  /** Whether the heaps are made of regions (.NET 7+): generations 0 and 1 start apart. */
  static boolean hasRegions(List<GcHeap> heaps) {
    return !heaps.isEmpty()
        && heaps.get(0).generations().size() >= 2
        && heaps.get(0).generations().get(0).startSegment()
            != heaps.get(0).generations().get(1).startSegment();
  }

  private static void readSegments(
      SosDac sos,
      int heap,
      SosDac.HeapDetails d,
      SosDac.Generation[] gens,
      int generation,
      boolean regions,
      Set<Long> seen,
      List<HeapSegment> out) {
    long address = gens[generation].startSegment();
    int guard = 0;
    while (seen.add(address) && guard++ < 1_000_000) {
      SosDac.SegmentData s = sos.segmentData(address);
      if (s == null) {
        return;
      }
      SegmentKind kind;
      if ((s.flags() & 1) != 0) {
        kind = SegmentKind.FROZEN;
      } else if (generation == 3) {
        kind = SegmentKind.LARGE;
      } else if (generation == 4) {
        kind = SegmentKind.PINNED;
      } else if (regions) {
        kind =
            generation == 0
                ? SegmentKind.GEN0
                : generation == 1 ? SegmentKind.GEN1 : SegmentKind.GEN2;
      } else {
        kind = address == d.ephemeralHeapSegment() ? SegmentKind.EPHEMERAL : SegmentKind.GEN2;
      }
      long end = address == d.ephemeralHeapSegment() ? d.allocAllocated() : s.allocated();
      long gen1 = 0;
      long gen0 = 0;
      if (kind == SegmentKind.EPHEMERAL) {
        gen1 = gens[1].allocationStart();
        gen0 = gens[0].allocationStart();
      }
      out.add(
          new HeapSegment(
              heap,
              s.segmentAddress() != 0 ? s.segmentAddress() : address,
              kind,
              s.mem(),
              end,
              s.committed(),
              s.reserved(),
              gen1,
              gen0,
              s.flags()));
      address = s.next();
    }
  }
}
