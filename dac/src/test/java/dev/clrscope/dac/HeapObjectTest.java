package dev.clrscope.dac;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * An object's references three ways, which must agree: a slot at a time ({@link
 * HeapObject#references}), gathered from the walk's block ({@link HeapObject#gatherReferences}),
 * and a run at a time ({@link HeapObject#referenceRuns}), over memory of random words.
 */
class HeapObjectTest {
  private static final long IMAGE = 0x10_0000_0000L;
  private static final long MT = 0x7f00_1234_5000L;

  private final Random random = new Random(7);

  /** Random words, a third of them null, at {@link #IMAGE}. */
  private static long[] image(Random r, int words) {
    long[] w = new long[words];
    for (int i = 0; i < words; i++) {
      w[i] = r.nextInt(3) == 0 ? 0 : r.nextLong() | 1;
    }
    return w;
  }

  /** An object of {@code type} at {@code address}, the walk's block the image's words from. */
  private static HeapObject object(
      ClrReader reader,
      long[] image,
      int blockFrom,
      int blockWords,
      ClrType type,
      long address,
      long size) {
    HeapObject o = new HeapObject(reader);
    place(o, image, blockFrom, blockWords, type, address, size);
    return o;
  }

  /** Makes {@code o} the object at {@code address}, as the walk moves its one object on. */
  private static void place(
      HeapObject o,
      long[] image,
      int blockFrom,
      int blockWords,
      ClrType type,
      long address,
      long size) {
    long[] words = Arrays.copyOfRange(image, blockFrom, blockFrom + blockWords);
    ByteBuffer block = ByteBuffer.allocate(8 * blockWords).order(ByteOrder.LITTLE_ENDIAN);
    block.asLongBuffer().put(words);
    o.block = block;
    o.words = words;
    o.blockBase = IMAGE + 8L * blockFrom;
    o.blockLength = 8 * blockWords;
    o.type = type;
    o.address = address;
    o.size = size;
    o.alignedSize = (size + 7) & ~7L;
  }

  /**
   * An object[] of {@code elements} at the image's second word (its elements from the fourth), the
   * walk's block the image's first {@code blockWords} words.
   */
  private static HeapObject referenceArray(
      long[] image, RegionMemory memory, int elements, int blockWords) {
    ClrReader reader = StandInReader.over(memory);
    ClrType array = StandInReader.type(reader, MT, true, GcDesc.decode(1, GcDescs.series(-24, 16)));
    return object(reader, image, 0, blockWords, array, IMAGE + 8, 24 + 8L * elements);
  }

  private static List<Long> references(HeapObject o) {
    List<Long> out = new ArrayList<>();
    o.references((target, offset) -> out.add(target));
    return out;
  }

  /** What {@link HeapObject#referenceRuns} hands on, and the sizes of the pieces. */
  private static List<Long> runs(HeapObject o, List<Integer> pieces) {
    List<Long> out = new ArrayList<>();
    long count =
        o.referenceRuns(
            (targets, n) -> {
              pieces.add(n);
              for (int i = 0; i < n; i++) {
                out.add(targets[i]);
              }
            });
    assertThat(count).isEqualTo(out.size());
    return out;
  }

  private static List<Long> gathered(HeapObject o, int n) {
    return Arrays.stream(o.gathered(), 0, n).boxed().toList();
  }

  @Test
  void theThreeReadsAgreeOnRandomDescriptorsAndPlaces() {
    int imageWords = 4096;
    long[] image = image(random, imageWords);
    RegionMemory memory = new RegionMemory().addWords(IMAGE, image);
    ClrReader reader = StandInReader.over(memory);
    // One HeapObject for every case, as the walk keeps one.
    HeapObject o = new HeapObject(reader);
    int inBlock = 0;
    int gatheredSome = 0;
    for (int i = 0; i < 5000; i++) {
      long size = 24 + 8L * random.nextInt(48) + (random.nextInt(8) == 0 ? random.nextInt(8) : 0);
      GcDesc d = GcDescs.random(random, size);
      ClrType type = StandInReader.type(reader, MT + 8L * (i + 1), true, d);
      List<Long> slots = GcDescs.slots(d, size);
      long lowest = slots.stream().mapToLong(Long::longValue).min().orElse(0);
      // The object somewhere after the words its slots reach back to; the block around it or not.
      int back = (int) (Math.max(0, -lowest) / 8);
      int at = 2 + back + random.nextInt(imageWords - 200 - back);
      long address = IMAGE + 8L * at;
      int blockFrom = Math.max(0, at - back - random.nextInt(4));
      int blockWords =
          random.nextInt(4) == 0
              ? random.nextInt(at - blockFrom + 8)
              : Math.min(imageWords - blockFrom, at - blockFrom + 64 + random.nextInt(64));
      place(o, image, blockFrom, blockWords, type, address, size);
      String what =
          "case " + i + ", object at word " + at + ", block " + blockFrom + "+" + blockWords;

      List<Long> expected = new ArrayList<>();
      for (long s : slots) {
        long target = memory.wordOrZero(address + s);
        if (target != 0) {
          expected.add(target);
        }
      }
      assertThat(references(o)).as(what).isEqualTo(expected);
      assertThat(runs(o, new ArrayList<>())).as(what).isEqualTo(expected);
      int n = o.gatherReferences();
      boolean inWords = GcDescs.runSlots(d, size) != null;
      boolean whole = 8L * at + o.alignedSize <= 8L * (blockFrom + blockWords);
      if (inWords && whole && !(lowest < 0 && n == -1)) {
        // (A slot before the object, in the block here, may be gathered or left to the slot walk.)
        inBlock++;
        gatheredSome += n > 0 ? 1 : 0;
        assertThat(n).as(what).isEqualTo(expected.size());
        assertThat(gathered(o, n)).as(what).isEqualTo(expected);
      } else {
        assertThat(n).as(what).isEqualTo(-1);
      }
    }
    assertThat(inBlock).isGreaterThan(2000);
    assertThat(gatheredSome).isGreaterThan(1000);
  }

  @Test
  void aLargeArrayOutsideTheBlockIsReadARunAtATime() {
    // object[] of 40,000 elements, most of them past the walk's block: the references come in
    // pieces of at most 16 Ki, read through the window.
    int elements = 40_000;
    long[] image = image(random, elements + 64);
    RegionMemory memory = new RegionMemory().addWords(IMAGE, image);
    HeapObject o = referenceArray(image, memory, elements, 4096);
    List<Long> expected = new ArrayList<>();
    for (int i = 0; i < elements; i++) {
      if (image[3 + i] != 0) {
        expected.add(image[3 + i]);
      }
    }
    int readsBefore = memory.reads();
    List<Integer> pieces = new ArrayList<>();

    assertThat(runs(o, pieces)).isEqualTo(expected);

    assertThat(pieces).allMatch(n -> n > 0 && n <= 1 << 14).hasSizeGreaterThanOrEqualTo(3);
    // A 1 MiB window: the part past the block in one read.
    assertThat(memory.reads() - readsBefore).isEqualTo(1);
    assertThat(o.gatherReferences()).isEqualTo(-1);
    assertThat(references(o)).isEqualTo(expected);
  }

  @Test
  void aLargeObjectInsideTheBlockIsGatheredWhole() {
    int elements = 30_000;
    long[] image = image(random, elements + 64);
    HeapObject o =
        referenceArray(image, new RegionMemory().addWords(IMAGE, image), elements, image.length);
    List<Long> expected = references(o);

    int n = o.gatherReferences();

    assertThat(n).isEqualTo(expected.size()).isGreaterThan(1 << 14);
    assertThat(gathered(o, n)).isEqualTo(expected);
    assertThat(runs(o, new ArrayList<>())).isEqualTo(expected);
  }

  @Test
  void slotsNotInWordsAreHandedOnInPiecesToo() {
    // A series from offset 12 (no real descriptor's): the slot walk reads each, the runs hand them
    // on 16 Ki at a time.
    int words = 30_000;
    long[] image = image(random, words + 64);
    RegionMemory memory = new RegionMemory().addWords(IMAGE, image);
    ClrReader reader = StandInReader.over(memory);
    long size = 8L * words;
    ClrType odd = StandInReader.type(reader, MT, true, GcDesc.decode(1, GcDescs.series(-12, 12)));
    HeapObject o = object(reader, image, 0, words + 64, odd, IMAGE + 8, size);
    List<Long> expected = references(o);
    List<Integer> pieces = new ArrayList<>();

    assertThat(runs(o, pieces)).isEqualTo(expected).hasSizeGreaterThan(1 << 14);

    assertThat(pieces).allMatch(n -> n > 0 && n <= 1 << 14).hasSizeGreaterThanOrEqualTo(2);
    assertThat(o.gatherReferences()).isEqualTo(-1);
  }

  @Test
  void anObjectWithoutReferencesOrDescriptorHasNone() {
    long[] image = image(random, 64);
    ClrReader reader = StandInReader.over(new RegionMemory().addWords(IMAGE, image));
    GcDesc fields = GcDesc.decode(1, GcDescs.series(16 - 40, 8));
    ClrType plain = StandInReader.type(reader, MT, false, fields);
    ClrType unreadable = StandInReader.type(reader, MT + 8, true, null);
    for (ClrType t : List.of(plain, unreadable)) {
      HeapObject o = object(reader, image, 0, 64, t, IMAGE + 8, 40);
      assertThat(o.gatherReferences()).isZero();
      assertThat(runs(o, new ArrayList<>())).isEmpty();
      assertThat(references(o)).isEmpty();
    }
  }

  /**
   * The object at word 8 of the image, the walk's block starting there (as a block starts at the
   * object the walk reached), of {@code size} bytes with descriptor {@code d}.
   */
  private HeapObject atTheBlocksStart(long[] image, GcDesc d, long size) {
    ClrReader reader = StandInReader.over(new RegionMemory().addWords(IMAGE, image));
    ClrType type = StandInReader.type(reader, MT, true, d);
    return object(reader, image, 8, image.length - 8, type, IMAGE + 64, size);
  }

  @Test
  void aDescriptorThatStepsBackBeforeTheBlockIsReadAsTheSlotWalkReadsIt() {
    // A damaged descriptor whose slot is the word before the object: the slot walk reads it from
    // memory; the gathering walk must agree or leave it to the slot walk, not fail the walk.
    long[] image = image(random, 64);
    image[7] = 0x7777;
    image[10] = 0x1010;
    HeapObject o = atTheBlocksStart(image, GcDescs.repeat(16, 1, -32, 1, 64), 48);
    List<Long> expected = references(o);
    assertThat(expected).containsExactly(0x1010L, 0x7777L);

    int n = o.gatherReferences(); // ArrayIndexOutOfBoundsException: words[-1]

    assertThat(n < 0 ? references(o) : gathered(o, n)).isEqualTo(expected);
  }

  @Test
  void aDescriptorThatStepsFarBackGathersNotTheObjectsOwnWords() {
    // Slots 32 GiB before the object: not in the dump, so no references; gathering must not give
    // the object's method table and first field in their place.
    long[] image = image(random, 64);
    image[8] = MT;
    image[9] = 0x9999;
    HeapObject o = atTheBlocksStart(image, GcDescTest.farBack(), 32);
    assertThat(references(o)).isEmpty();

    int n = o.gatherReferences(); // 2: MT and 0x9999

    assertThat(n < 0 ? references(o) : gathered(o, n)).isEmpty();
  }
}
