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

  private static HeapProblem problem(HeapProblem.Kind kind, long at, String reason) {
    return new HeapProblem(kind, REGION, at, REGION.end() - at, reason);
  }

  /** A walk's problems: {@code n} of {@code kind}, named {@code prefix} and their number. */
  private static HeapProblems walkWith(int n, HeapProblem.Kind kind, String prefix) {
    HeapProblems.Collector c = new HeapProblems.Collector();
    for (int i = 0; i < n; i++) {
      c.add(problem(kind, 0x8000, prefix + i));
    }
    return c.done();
  }

  @Test
  void twoWalksProblemsAreOneWalksLowerFirst() {
    HeapProblems.Collector lowerWalk = new HeapProblems.Collector();
    lowerWalk.add(problem(HeapProblem.Kind.TYPE_UNREADABLE, 0x2000, "a"));
    lowerWalk.add(problem(HeapProblem.Kind.MEMORY_MISSING, 0x8000, "b"));
    HeapProblems.Collector upperWalk = new HeapProblems.Collector();
    upperWalk.add(problem(HeapProblem.Kind.MEMORY_MISSING, 0x4000, "c"));
    upperWalk.add(problem(HeapProblem.Kind.OBJECT_PAST_END, 0x6000, "d"));
    HeapProblems lower = lowerWalk.done();
    HeapProblems upper = upperWalk.done();

    HeapProblems both = HeapProblems.concat(lower, upper);

    assertThat(both.byKind())
        .containsOnly(
            Map.entry(HeapProblem.Kind.TYPE_UNREADABLE, 1),
            Map.entry(HeapProblem.Kind.MEMORY_MISSING, 2),
            Map.entry(HeapProblem.Kind.OBJECT_PAST_END, 1));
    assertThat(both.count()).isEqualTo(4);
    assertThat(both.bytesNotWalked()).isEqualTo(0x7000 + 0x1000 + 0x5000 + 0x3000);
    assertThat(both.first()).extracting(HeapProblem::reason).containsExactly("a", "b", "c", "d");
    // The counts in the kinds' order, as one walk's collector gives them.
    HeapProblems.Collector oneWalk = new HeapProblems.Collector();
    lower.first().forEach(oneWalk::add);
    upper.first().forEach(oneWalk::add);
    assertThat(both).isEqualTo(oneWalk.done());
    assertThat(both.summary()).isEqualTo(oneWalk.done().summary());
  }

  @Test
  void aWalkWithoutProblemsAddsNone() {
    HeapProblems some = walkWith(3, HeapProblem.Kind.MEMORY_MISSING, "m");
    assertThat(HeapProblems.concat(some, HeapProblems.NONE)).isSameAs(some);
    assertThat(HeapProblems.concat(HeapProblems.NONE, some)).isSameAs(some);
    assertThat(HeapProblems.concat(HeapProblems.NONE, HeapProblems.NONE))
        .isSameAs(HeapProblems.NONE);
  }

  @Test
  void theFirstKeptAreTheLowerWalksThenTheUppers() {
    HeapProblems ninety = walkWith(90, HeapProblem.Kind.TYPE_UNREADABLE, "lower ");
    HeapProblems thirty = walkWith(30, HeapProblem.Kind.OBJECT_PAST_END, "upper ");
    HeapProblems both = HeapProblems.concat(ninety, thirty);
    assertThat(both.count()).isEqualTo(120);
    assertThat(both.first()).hasSize(HeapProblems.KEPT);
    assertThat(both.first().subList(0, 90)).isEqualTo(ninety.first());
    assertThat(both.first().subList(90, 100)).isEqualTo(thirty.first().subList(0, 10));

    // A lower walk that kept its fill: the upper's are counted, not kept.
    HeapProblems many = walkWith(150, HeapProblem.Kind.MEMORY_MISSING, "lower ");
    HeapProblems full = HeapProblems.concat(many, thirty);
    assertThat(full.byKind())
        .containsOnly(
            Map.entry(HeapProblem.Kind.MEMORY_MISSING, 150),
            Map.entry(HeapProblem.Kind.OBJECT_PAST_END, 30));
    assertThat(full.first()).isEqualTo(many.first());
    assertThat(full.bytesNotWalked()).isEqualTo(180L * 0x1000);
  }

  @Test
  void twoWalksSummariesAreOneWalks() {
    HeapProblems lowerProblems = walkWith(1, HeapProblem.Kind.TYPE_UNREADABLE, "x");
    HeapProblems upperProblems = walkWith(2, HeapProblem.Kind.MEMORY_MISSING, "y");
    WalkSummary lower = new WalkSummary(1000, 64_000, 3, lowerProblems, 5_000_000);
    WalkSummary upper = new WalkSummary(800, 51_200, 4, upperProblems, 7_000_000);

    WalkSummary both = WalkSummary.concat(lower, upper);

    assertThat(both.objects()).isEqualTo(1800);
    assertThat(both.bytes()).isEqualTo(115_200);
    assertThat(both.segments()).isEqualTo(7);
    assertThat(both.problems()).isEqualTo(HeapProblems.concat(lowerProblems, upperProblems));
    assertThat(both.problems().count()).isEqualTo(3);
    assertThat(both.complete()).isFalse();
    // The halves ran side by side: the walk took as long as the longer.
    assertThat(both.elapsedNanos()).isEqualTo(7_000_000);
    WalkSummary whole =
        WalkSummary.concat(
            new WalkSummary(1, 24, 1, HeapProblems.NONE, 9),
            new WalkSummary(2, 48, 1, HeapProblems.NONE, 3));
    assertThat(whole).isEqualTo(new WalkSummary(3, 72, 2, HeapProblems.NONE, 9));
    assertThat(whole.complete()).isTrue();
  }
}
