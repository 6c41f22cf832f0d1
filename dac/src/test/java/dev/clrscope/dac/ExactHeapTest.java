package dev.clrscope.dac;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Where the exact graph's walk is cut in two, one half per thread. */
class ExactHeapTest {
  private static final long MIB = 1 << 20;

  /** Consecutive segments of these sizes, from one address up. */
  private static List<HeapSegment> segments(long... sizes) {
    List<HeapSegment> out = new ArrayList<>();
    long at = 0x7f00_0000_0000L;
    for (long size : sizes) {
      out.add(
          new HeapSegment(0, at - 0x1000, SegmentKind.GEN2, at, at + size, at + size, 0, 0, 0, 0));
      at += size + 0x10000;
    }
    return out;
  }

  /** {@code index}, where this machine has the two cores a second walk needs; else -1. */
  private static int onTwoCores(int index) {
    return Runtime.getRuntime().availableProcessors() < 2 ? -1 : index;
  }

  @Test
  void fewerThanTwoSegmentsAreWalkedOnOneThread() {
    assertThat(ExactHeap.splitPoint(List.of())).isEqualTo(-1);
    assertThat(ExactHeap.splitPoint(segments(100 * ExactHeap.TWO_WALKS_FROM))).isEqualTo(-1);
  }

  @Test
  void aHeapSmallerThanTheBoundIsWalkedOnOneThread() {
    long half = ExactHeap.TWO_WALKS_FROM / 2;
    assertThat(ExactHeap.splitPoint(segments(half, half - 8))).isEqualTo(-1);
    assertThat(ExactHeap.splitPoint(segments(half, half))).isEqualTo(onTwoCores(1));
  }

  @Test
  void theCutBalancesTheBytesOfTheHalves() {
    long unit = Math.max(MIB, ExactHeap.TWO_WALKS_FROM / 8);
    // 10, 10, 10, 10, 40: after the fourth, 40 and 40.
    assertThat(ExactHeap.splitPoint(segments(unit, unit, unit, unit, 4 * unit)))
        .isEqualTo(onTwoCores(4));
    // 6, 1, 1, 8: after the third, 8 and 8.
    assertThat(ExactHeap.splitPoint(segments(6 * unit, unit, unit, 8 * unit)))
        .isEqualTo(onTwoCores(3));
    // 7, 1, 1, 1, 1: no cut is even; the nearest, 7 and 4, wins.
    assertThat(ExactHeap.splitPoint(segments(7 * unit, unit, unit, unit, unit)))
        .isEqualTo(onTwoCores(1));
    // Among equal cuts the first.
    assertThat(ExactHeap.splitPoint(segments(4 * unit, 0, 4 * unit))).isEqualTo(onTwoCores(1));
  }

  @Test
  void halvesFurtherApartThanThreeToOneAreWalkedOnOneThread() {
    long unit = Math.max(MIB, ExactHeap.TWO_WALKS_FROM / 4);
    // 3 to 1: still in two.
    assertThat(ExactHeap.splitPoint(segments(3 * unit, unit))).isEqualTo(onTwoCores(1));
    assertThat(ExactHeap.splitPoint(segments(unit, 3 * unit))).isEqualTo(onTwoCores(1));
    // A little more: one walk.
    assertThat(ExactHeap.splitPoint(segments(3 * unit + 8, unit))).isEqualTo(-1);
    assertThat(ExactHeap.splitPoint(segments(unit, 3 * unit + 8))).isEqualTo(-1);
    // One segment that is most of the heap, wherever it is.
    assertThat(ExactHeap.splitPoint(segments(unit / 8, 8 * unit, unit / 8))).isEqualTo(-1);
  }
}
