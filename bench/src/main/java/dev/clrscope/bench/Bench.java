package dev.clrscope.bench;

/** Shared settings. */
final class Bench {
  /** Where the generated trace goes (relative to the working directory; never committed). */
  static final String DEFAULT_TRACE =
      System.getProperty("clrscope.bench.trace", "target/nettrace-bench.nettrace");

  /** At least 200 MB, as the issue asks. */
  static final long MIN_BYTES = 220L << 20;

  private Bench() {}
}
