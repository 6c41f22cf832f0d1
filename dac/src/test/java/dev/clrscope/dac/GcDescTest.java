package dev.clrscope.dac;

import static dev.clrscope.dac.GcDescs.repeat;
import static dev.clrscope.dac.GcDescs.runSlots;
import static dev.clrscope.dac.GcDescs.series;
import static dev.clrscope.dac.GcDescs.slots;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** GC descriptors as the runtime lays them out below a method table. */
class GcDescTest {
  @Test
  void fieldsOfAClass() {
    // A 40-byte object with references at 8 and 16 (one series of 16 bytes: size 16 - 40).
    GcDesc d = GcDesc.decode(1, series(16 - 40, 8));
    assertThat(slots(d, 40)).containsExactly(8L, 16L);
  }

  @Test
  void twoSeries() {
    GcDesc d = GcDesc.decode(2, series(8 - 48, 8, 8 - 48, 32));
    assertThat(slots(d, 48)).containsExactlyInAnyOrder(8L, 32L);
  }

  @Test
  void anArrayOfReferencesGrowsWithItsLength() {
    // object[]: elements from offset 16 (after the method table and the length) to the end of the
    // object, which starts 8 bytes before the method table: the series is size - 24 bytes long.
    GcDesc d = GcDesc.decode(1, series(-24, 16));
    assertThat(slots(d, 24 + 3 * 8)).containsExactly(16L, 24L, 32L);
  }

  @Test
  void anArrayOfStructsRepeatsItsPattern() {
    // Elements of 16 bytes from offset 16: a reference, then 8 bytes of data.
    ByteBuffer b = ByteBuffer.allocate(8 * 3).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(1).putInt(8); // one pointer, skip 8
    b.putLong(16); // start offset
    b.putLong(-1); // one repeating series
    GcDesc d = GcDesc.decode(-1, b.array());
    assertThat(slots(d, 16 + 3 * 16)).containsExactly(16L, 32L, 48L);
  }

  @Test
  void nonsenseIsNoDescriptorAndNeverLoops() {
    assertThat(GcDesc.decode(0, new byte[8])).isNull();
    assertThat(GcDesc.decode(1 << 20, new byte[8])).isNull();
    ByteBuffer b = ByteBuffer.allocate(8 * 3).order(ByteOrder.LITTLE_ENDIAN);
    b.putInt(0).putInt(0).putLong(16).putLong(-1);
    assertThat(slots(GcDesc.decode(-1, b.array()), 1 << 20)).isEmpty();
    // A series that would run past the object is not followed.
    assertThat(slots(GcDesc.decode(1, series(1 << 20, 8)), 40)).isEmpty();
  }

  /**
   * Checks {@link GcDesc#gather} and {@link GcDesc#forEachRun} against {@link GcDesc#forEachSlot}
   * on an object of {@code size} bytes whose words are random (a third of them null), with words of
   * other objects before it as far back as its slots reach.
   */
  private static void sameAsSlots(GcDesc d, long size, Random r, String what) {
    List<Long> slots = slots(d, size);
    List<Long> runs = runSlots(d, size);
    long lowest = slots.stream().mapToLong(Long::longValue).min().orElse(0);
    int before = (int) (Math.max(0, -lowest) / 8) + r.nextInt(3);
    long[] words = new long[before + (int) ((size + 7) / 8) + r.nextInt(3)];
    for (int i = 0; i < words.length; i++) {
      words[i] = r.nextInt(3) == 0 ? 0 : r.nextLong() | 1;
    }
    long[] out = new long[slots.size() + r.nextInt(3)];
    int n = d.gather(size, words, before, out);
    if (runs == null) {
      assertThat(n).as("%s: gather of slots not in words", what).isEqualTo(-1);
      return;
    }
    assertThat(runs).as("%s: runs", what).isEqualTo(slots);
    List<Long> expected = new ArrayList<>();
    for (long s : slots) {
      long target = words[before + (int) (s / 8)];
      if (target != 0) {
        expected.add(target);
      }
    }
    if (lowest < 0 && n == -1) {
      // A slot before the object is not one of its words: gather may leave it to the slot walk.
      return;
    }
    assertThat(n).as("%s: gathered", what).isEqualTo(expected.size());
    assertThat(Arrays.stream(out, 0, n).boxed().toList()).as(what).isEqualTo(expected);
    if (!expected.isEmpty()) {
      assertThat(d.gather(size, words, before, new long[expected.size() - 1]))
          .as("%s: no room", what)
          .isEqualTo(-1);
    }
  }

  @Test
  void gatherAndRunsGiveTheSlotsOfRandomDescriptors() {
    Random r = new Random(35);
    int inWords = 0;
    int withReferences = 0;
    for (int i = 0; i < 20_000; i++) {
      long size = 24 + 8L * r.nextInt(64);
      GcDesc d = GcDescs.random(r, size);
      // The same descriptor on objects of other sizes, as an array's on arrays of other lengths;
      // and sizes that are not whole words.
      for (long s :
          new long[] {
            size, size + 8L * r.nextInt(100), Math.max(0, size - 8L * r.nextInt(4)), r.nextInt(900)
          }) {
        sameAsSlots(d, s, r, "case " + i + ", size " + s);
      }
      if (runSlots(d, size) != null) {
        inWords++;
        withReferences += slots(d, size).isEmpty() ? 0 : 1;
      }
    }
    // The draw covers both kinds, and mostly descriptors that name slots.
    assertThat(inWords).isBetween(15_000, 19_500);
    assertThat(withReferences).isGreaterThan(10_000);
  }

  @Test
  void seriesThatStartBeforeOrEndAfterTheObjectStopTheWalkOfItsSlots() {
    Random r = new Random(3);
    // Offset -8: nothing from there on; a series past the end: the same.
    GcDesc before = GcDesc.decode(2, series(8 - 40, 8, 8 - 40, -8));
    GcDesc past = GcDesc.decode(2, series(8 - 40, 8, 64 - 40, 16));
    assertThat(slots(before, 40)).containsExactly(8L);
    assertThat(slots(past, 40)).containsExactly(8L);
    sameAsSlots(before, 40, r, "before");
    sameAsSlots(past, 40, r, "past");
  }

  @Test
  void aRepeatOfStructsGathersEveryElement() {
    // KeyValuePair<string, object>[] of 1,000 elements: two references each, no skip.
    GcDesc pairs = repeat(16, 2, 0);
    assertThat(slots(pairs, 16 + 16 * 1000)).hasSize(2000);
    // (object, int, object) elements of 24 bytes: one reference, skip 8, one reference.
    GcDesc mixed = repeat(16, 1, 8, 1, 0);
    assertThat(slots(mixed, 16 + 24 * 3)).containsExactly(16L, 32L, 40L, 56L, 64L, 80L);
    Random r = new Random(4);
    sameAsSlots(pairs, 16 + 16 * 1000, r, "pairs");
    sameAsSlots(mixed, 16 + 24 * 3, r, "mixed");
  }

  @Test
  void malformedRepeatsEndAndAgree() {
    Random r = new Random(5);
    // Does not advance; pointers negative; pointers past the end; a start past the end; a start
    // before the object; a skip that steps back inside the object but advances over the round.
    GcDesc still = repeat(16, 0, 0);
    GcDesc negative = repeat(16, -1, 8);
    GcDesc huge = repeat(16, Integer.MAX_VALUE, 0);
    GcDesc hugeNegative = repeat(16, Integer.MIN_VALUE, 8, 1, 0);
    GcDesc late = repeat(1L << 40, 1, 0);
    GcDesc early = repeat(-8, 1, 0);
    GcDesc back = repeat(16, 2, -8, 1, 8);
    assertThat(slots(still, 1 << 20)).isEmpty();
    assertThat(slots(negative, 64)).containsExactly();
    assertThat(slots(huge, 64)).isEmpty();
    assertThat(slots(hugeNegative, 48)).containsExactly(24L, 40L);
    assertThat(slots(late, 64)).isEmpty();
    assertThat(slots(early, 64)).isEmpty();
    assertThat(slots(back, 64)).containsExactly(16L, 24L, 24L, 40L, 48L, 48L);
    for (GcDesc d : List.of(still, negative, huge, hugeNegative, late, early, back)) {
      sameAsSlots(d, 64, r, "malformed");
      sameAsSlots(d, 48, r, "malformed");
    }
  }

  @Test
  void theMostSeriesADescriptorMayHaveAgree() {
    int n = GcDesc.MAX_SERIES;
    // A series per word of a 512 KiB object, and a repeat of as many pairs.
    long size = 16 + 8L * n;
    long[] pairs = new long[2 * n];
    for (int i = 0; i < n; i++) {
      pairs[2 * i] = 8 - size;
      pairs[2 * i + 1] = 16 + 8L * i;
    }
    GcDesc many = GcDesc.decode(n, series(pairs));
    int[] pointerSkips = new int[2 * n];
    for (int i = 0; i < n; i++) {
      pointerSkips[2 * i] = i % 2;
      pointerSkips[2 * i + 1] = 8 * ((i + 1) % 2);
    }
    GcDesc manyPairs = repeat(16, pointerSkips);
    assertThat(slots(many, size)).hasSize(n);
    assertThat(slots(manyPairs, size)).hasSize(n / 2);
    Random r = new Random(6);
    sameAsSlots(many, size, r, "many series");
    sameAsSlots(manyPairs, size, r, "many pairs");
    assertThat(GcDesc.decode(n + 1, new byte[8])).isNull();
  }

  @Test
  void slotsNotInWholeWordsAreLeftToTheSlotWalk() {
    GcDesc series = GcDesc.decode(1, series(8 - 40, 12));
    GcDesc repeat = repeat(16, 1, 4);
    assertThat(slots(series, 40)).containsExactly(12L);
    assertThat(series.gather(40, new long[5], 0, new long[5])).isEqualTo(-1);
    assertThat(runSlots(series, 40)).isNull();
    assertThat(slots(repeat, 48)).containsExactly(16L, 28L);
    assertThat(repeat.gather(48, new long[6], 0, new long[6])).isEqualTo(-1);
    assertThat(runSlots(repeat, 48)).isNull();
  }

  /** Sixteen skips of -2^31 bytes, then two pointers: slots 32 GiB before the object's start. */
  static GcDesc farBack() {
    int[] pairs = new int[34];
    for (int i = 0; i < 16; i++) {
      pairs[2 * i + 1] = Integer.MIN_VALUE;
    }
    pairs[32] = 2;
    return repeat(0, pairs);
  }

  @Test
  void gatherReadsNoWordBeforeTheObjectsFirst() {
    // From 16: a pointer, back 32 bytes; a pointer (at -8, the header before the object), on 64.
    GcDesc d = repeat(16, 1, -32, 1, 64);
    assertThat(slots(d, 48)).containsExactly(16L, -8L);
    assertThat(runSlots(d, 48)).containsExactly(16L, -8L);
    // The object's words are all the words there are: its slot at -8 is not among them, so gather
    // must leave the object to the slot walk (-1). It indexes words[-1] instead.
    long[] words = {0x1000, 0x2000, 0x3000, 0x4000, 0x5000, 0x6000};
    assertThat(d.gather(48, words, 0, new long[8])).isEqualTo(-1);
  }

  @Test
  void gatherReadsNoSlotFarBeforeTheObjectAsOneOfItsOwn() {
    GcDesc d = farBack();
    assertThat(slots(d, 32)).containsExactly(-(1L << 35), -(1L << 35) + 8);
    // (int) (offset >>> 3) of -2^35 is 0: gather reads the object's own first two words (its
    // method table and first field) as the references 32 GiB before it.
    long[] words = {0x1000, 0x2000, 0x3000, 0x4000};
    long[] out = new long[8];
    int n = d.gather(32, words, 0, out);
    assertThat(n).isEqualTo(-1);
  }
}
