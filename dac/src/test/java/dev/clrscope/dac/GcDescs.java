package dev.clrscope.dac;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * GC descriptors for the tests, as the runtime lays them out below a method table: made to order,
 * and drawn at random (real ones, and the malformed ones a damaged dump holds).
 */
final class GcDescs {
  private GcDescs() {}

  /** Series {size - baseSize, offset}, lowest address first; the count last. */
  static byte[] series(long... sizeOffsetPairs) {
    int n = sizeOffsetPairs.length / 2;
    ByteBuffer b = ByteBuffer.allocate(8 * (1 + 2 * n)).order(ByteOrder.LITTLE_ENDIAN);
    for (int i = n - 1; i >= 0; i--) {
      b.putLong(sizeOffsetPairs[2 * i]).putLong(sizeOffsetPairs[2 * i + 1]);
    }
    b.putLong(n);
    return b.array();
  }

  /**
   * A repeating descriptor: from {@code start}, the {@code (pointers, skip)} pairs in the order
   * they are followed (stored the other way round, the first nearest the count), repeated.
   */
  static GcDesc repeat(long start, int... pointerSkipPairs) {
    int n = pointerSkipPairs.length / 2;
    // The reader reads as many bytes as for n series; the pairs take the top 8 * n + 16 of them.
    int length = GcDesc.byteSize(n);
    ByteBuffer b = ByteBuffer.allocate(length).order(ByteOrder.LITTLE_ENDIAN);
    b.position(length - 8 * n - 16);
    for (int i = n - 1; i >= 0; i--) {
      b.putInt(pointerSkipPairs[2 * i]).putInt(pointerSkipPairs[2 * i + 1]);
    }
    b.putLong(start).putLong(-n);
    return GcDesc.decode(-n, b.array());
  }

  /** The slots {@link GcDesc#forEachSlot} gives, in its order. */
  static List<Long> slots(GcDesc d, long size) {
    List<Long> out = new ArrayList<>();
    d.forEachSlot(size, out::add);
    return out;
  }

  /**
   * The slots {@link GcDesc#forEachRun} gives, a run's words one by one, or null when it declines
   * (slots not in words).
   */
  static List<Long> runSlots(GcDesc d, long size) {
    List<Long> out = new ArrayList<>();
    boolean inWords =
        d.forEachRun(
            size,
            (offset, words) -> {
              for (long i = 0; i < words; i++) {
                out.add(offset + 8 * i);
              }
            });
    return inWords ? out : null;
  }

  /**
   * A descriptor drawn at random for objects of about {@code size} bytes: mostly in words and
   * inside the object; now and then one that steps back (never further than {@code 4 * 32} bytes in
   * a round), starts or runs past the object, does not advance, counts negative or huge numbers of
   * pointers, or is not in words.
   */
  static GcDesc random(Random r, long size) {
    if (r.nextBoolean()) {
      int n = 1 + r.nextInt(4);
      long[] pairs = new long[2 * n];
      for (int i = 0; i < n; i++) {
        long offset =
            switch (r.nextInt(20)) {
              case 0 -> -8L * (1 + r.nextInt(4));
              case 1 -> 8L * r.nextInt(8) + 1 + r.nextInt(7);
              case 2 -> r.nextBoolean() ? Long.MAX_VALUE - r.nextInt(16) : 1L << 40;
              default -> 8L * r.nextInt((int) (size / 8) + 2);
            };
        long length =
            switch (r.nextInt(20)) {
              case 0, 1 -> size - offset; // to the object's end: an array of references
              case 2 -> 8L * r.nextInt(4) + 1 + r.nextInt(7);
              case 3 -> r.nextBoolean() ? Long.MAX_VALUE - r.nextInt(16) : Long.MIN_VALUE + 8;
              case 4 -> -8L * r.nextInt(4);
              default -> 8L * r.nextInt(6);
            };
        pairs[2 * i] = length - size;
        pairs[2 * i + 1] = offset;
      }
      return GcDesc.decode(n, series(pairs));
    }
    int n = 1 + r.nextInt(4);
    int[] pairs = new int[2 * n];
    for (int i = 0; i < n; i++) {
      pairs[2 * i] =
          switch (r.nextInt(20)) {
            case 0 -> -1 - r.nextInt(3);
            case 1 -> Integer.MIN_VALUE;
            case 2 -> Integer.MAX_VALUE;
            case 3 -> 1 << 28;
            default -> r.nextInt(4);
          };
      pairs[2 * i + 1] =
          switch (r.nextInt(20)) {
            case 0 -> 8 * r.nextInt(4) + 1 + r.nextInt(7);
            case 1, 2 -> 0;
            default -> 8 * (r.nextInt(13) - 4);
          };
    }
    long start =
        switch (r.nextInt(20)) {
          case 0 -> -8L * (1 + r.nextInt(4));
          case 1 -> 8L * r.nextInt(4) + 1 + r.nextInt(7);
          case 2 -> 1L << 40;
          case 3 -> 0;
          default -> 8L * (1 + r.nextInt(4));
        };
    return repeat(start, pairs);
  }
}
