package dev.clrscope.monitor.gc;

/**
 * A size for each of the five generations of the .NET heap, in bytes.
 *
 * @param gen0 generation 0
 * @param gen1 generation 1
 * @param gen2 generation 2
 * @param loh the large object heap (objects of 85,000 bytes and more)
 * @param poh the pinned object heap (.NET 5 and later)
 */
public record GenerationSizes(long gen0, long gen1, long gen2, long loh, long poh) {
  /** All zero. */
  public static final GenerationSizes ZERO = new GenerationSizes(0, 0, 0, 0, 0);

  /** The generations' sum. */
  public long total() {
    return gen0 + gen1 + gen2 + loh + poh;
  }

  /** The size of generation {@code g}: 0-2, 3 for the LOH, 4 for the POH. */
  public long get(int g) {
    return switch (g) {
      case 0 -> gen0;
      case 1 -> gen1;
      case 2 -> gen2;
      case 3 -> loh;
      case 4 -> poh;
      default -> throw new IllegalArgumentException("generation " + g);
    };
  }

  /** The element-wise sum. */
  public GenerationSizes plus(GenerationSizes o) {
    return new GenerationSizes(
        gen0 + o.gen0, gen1 + o.gen1, gen2 + o.gen2, loh + o.loh, poh + o.poh);
  }

  /** Sizes from an array of up to five values; missing generations are 0. */
  static GenerationSizes of(long[] v) {
    return new GenerationSizes(at(v, 0), at(v, 1), at(v, 2), at(v, 3), at(v, 4));
  }

  private static long at(long[] v, int i) {
    return i < v.length ? v[i] : 0;
  }
}
