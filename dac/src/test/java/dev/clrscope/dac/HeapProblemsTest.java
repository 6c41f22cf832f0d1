package dev.clrscope.dac;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clrscope.heapwalk.WalkProblems;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What a walk could not read, counted by kind with its bytes, and said in one line. */
class HeapProblemsTest {
  private static final HeapSegment REGION =
      new HeapSegment(0, 0x7f00_0000_0000L, SegmentKind.GEN2, 0x1000, 0x9000, 0, 0, 0, 0, 0);

  @Test
  void eachStopIsCountedWithTheRestOfItsSegment() {
    HeapProblems.Collector c = new HeapProblems.Collector();
    c.add(new HeapProblem(HeapProblem.Kind.TYPE_UNREADABLE, REGION, 0x2000, 0x7000, "x"));
    c.add(new HeapProblem(HeapProblem.Kind.MEMORY_MISSING, REGION, 0x8000, 0x1000, "y"));
    c.add(new HeapProblem(HeapProblem.Kind.MEMORY_MISSING, REGION, 0x8800, 0x800, "z"));
    HeapProblems p = c.done();
    assertThat(p.isEmpty()).isFalse();
    assertThat(p.count()).isEqualTo(3);
    assertThat(p.bytesNotWalked()).isEqualTo(0x8800);
    assertThat(p.countsByName())
        .containsExactly(Map.entry("typeUnreadable", 1), Map.entry("memoryMissing", 2));
    assertThat(p.summary())
        .isEqualTo(
            "34,816 bytes of the heap not walked: 1 object whose type cannot be read, 2 segments"
                + " cut short (memory missing from the dump) (the rest of each such segment"
                + " skipped)");
    assertThat(p.first().get(0).describe())
        .isEqualTo(
            "segment 0x7f0000000000: the walk stopped at 0x2000, 28,672 bytes before its end: x");
  }

  @Test
  void aSnapshotsCountsReadBack() {
    HeapProblems p =
        HeapProblems.of(new WalkProblems(List.of("a"), Map.of("segmentMissing", 2), 4096));
    assertThat(p.byKind()).containsExactly(Map.entry(HeapProblem.Kind.SEGMENT_MISSING, 2));
    assertThat(p.bytesNotWalked()).isEqualTo(4096);
    assertThat(HeapProblems.of(WalkProblems.NONE)).isSameAs(HeapProblems.NONE);
    assertThat(new HeapProblems.Collector().done()).isSameAs(HeapProblems.NONE);
  }
}
