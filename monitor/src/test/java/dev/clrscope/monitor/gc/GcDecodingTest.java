package dev.clrscope.monitor.gc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Reason, condemn-reason, mechanism and pause-mode codes, and the summary's statistics. */
class GcDecodingTest {
  @Test
  void reasonsFollowTheRuntimesTable() {
    assertThat(Arrays.stream(GcReason.values()).map(GcReason::name).toList())
        .containsExactly(
            "AllocSmall",
            "Induced",
            "LowMemory",
            "Empty",
            "AllocLarge",
            "OutOfSpaceSOH",
            "OutOfSpaceLOH",
            "InducedNotForced",
            "Internal",
            "InducedLowMemory",
            "InducedCompacting",
            "LowMemoryHost",
            "PMFullGC",
            "LowMemoryHostBlocking",
            "BGCTuningSOH",
            "BGCTuningLOH",
            "BGCStepping",
            "InducedAggressive");
    for (GcReason r : GcReason.values()) {
      assertThat(GcReason.of(r.code())).isSameAs(r);
    }
    assertThat(GcReason.name(1)).isEqualTo("Induced");
    assertThat(GcReason.name(99)).isEqualTo("Reason99");
    assertThat(GcType.name(1)).isEqualTo("Background");
    assertThat(GcType.name(7)).isEqualTo("Type7");
  }

  @Test
  void condemnReasonsUnpackGenerationsAndConditions() {
    // initial 2, final 1, budget 0, time tuning 3; conditions 0 (induced_fullgc), 15
    // (before_bgc), 30 (joined_aggressive), 31 (unknown).
    CondemnReasons r =
        CondemnReasons.decode(0b11_00_01_10, (1L << 0) | (1L << 15) | (1L << 30) | (1L << 31));
    assertThat(r.initialGeneration()).isEqualTo(2);
    assertThat(r.finalPerHeapGeneration()).isEqualTo(1);
    assertThat(r.budgetExceededGeneration()).isZero();
    assertThat(r.timeTuningGeneration()).isEqualTo(3);
    assertThat(r.conditions())
        .containsExactly("induced_fullgc", "before_bgc", "joined_aggressive", "condition31");
    assertThat(r.describe())
        .isEqualTo(
            "initial 2, final 1, budget 0; induced_fullgc,before_bgc,joined_aggressive,condition31");
    assertThat(CondemnReasons.decode(0, 0).describe()).isEqualTo("initial 0, final 0, budget 0");
  }

  @Test
  void heapFlagsHaveTheirNames() {
    assertThat(GcHeapFlags.pauseMode(1)).isEqualTo("Interactive");
    assertThat(GcHeapFlags.pauseMode(3)).isEqualTo("SustainedLowLatency");
    assertThat(GcHeapFlags.pauseMode(9)).isEqualTo("Mode9");
    assertThat(GcHeapFlags.globalMechanisms(0x3F))
        .containsExactly(
            "Concurrent", "Compaction", "Promotion", "Demotion", "CardBundles", "Elevation");
    assertThat(GcHeapFlags.globalMechanisms(0)).isEmpty();
    // Per-heap mechanisms are 1<<31 | 1<<index; without bit 31 none was recorded.
    assertThat(GcHeapFlags.compactReason(0x8000_0002L)).isEqualTo("high_frag");
    assertThat(GcHeapFlags.compactReason(2)).isNull();
    assertThat(GcHeapFlags.expandMechanism(0x8000_0008L)).isEqualTo("new_seg");
  }

  @Test
  void percentilesUseTheNearestRank() {
    double[] v = new double[100];
    for (int i = 0; i < 100; i++) {
      v[i] = i + 1;
    }
    assertThat(GcSummary.percentile(v, 95)).isEqualTo(95);
    assertThat(GcSummary.percentile(v, 99)).isEqualTo(99);
    assertThat(GcSummary.percentile(new double[] {4}, 99)).isEqualTo(4);
    assertThat(GcSummary.percentile(new double[] {1, 2, 3}, 50)).isEqualTo(2);
  }

  @Test
  void theSummaryCountsPausesAndAllocation() {
    GcSummary.Accumulator a = new GcSummary.Accumulator();
    // GC 1 leaves gen0 at 100; GC 2 finds gen0 at 1,100 and the LOH grown by 500: 1,500 allocated
    // in the 1 s between them.
    a.add(gc(1, 0, 2_000_000L, 0, 0, 100, 0));
    a.add(gc(2, 1_001_000_000L, 4_000_000L, 1_100, 500, 0, 0));
    GcSummary s = a.build(10_000_000_000L, 6_000_000L, 0);
    assertThat(s.gcs()).isEqualTo(2);
    assertThat(s.perGeneration()).containsEntry("gen2", 2L);
    assertThat(s.perReason()).containsEntry("Induced", 2L);
    assertThat(s.meanPauseMillis()).isEqualTo(3.0);
    assertThat(s.maxPauseMillis()).isEqualTo(4.0);
    assertThat(s.p99PauseMillis()).isEqualTo(4.0);
    assertThat(s.pausedPercent()).isCloseTo(0.06, org.assertj.core.data.Offset.offset(1e-9));
    assertThat(s.allocatedBytes()).isEqualTo(1_500);
    assertThat(s.allocationBytesPerSecond())
        .isCloseTo(1_500, org.assertj.core.data.Offset.offset(1e-6));
    assertThat(new GcSummary.Accumulator().build(1, 0, 0).allocatedBytes()).isNull();
  }

  private static GcRecord gc(
      long number,
      long start,
      long pause,
      long gen0Before,
      long lohGrowth,
      long gen0After,
      long unused) {
    HeapHistory h =
        new HeapHistory(
            0,
            GenerationSizes.ZERO,
            new GenerationSizes(gen0Before, 0, 0, lohGrowth, 0),
            new GenerationSizes(gen0After, 0, 0, 0, 0),
            GenerationSizes.ZERO,
            GenerationSizes.ZERO,
            CondemnReasons.decode(0, 0),
            null,
            null);
    return new GcRecord(
        number,
        2,
        "NonConcurrent",
        "Induced",
        0,
        start,
        java.time.Instant.EPOCH,
        1_000_000L,
        pause,
        0L,
        null,
        null,
        null,
        null,
        null,
        null,
        2,
        null,
        null,
        null,
        List.of(),
        List.of(h));
  }
}
