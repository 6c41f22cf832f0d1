package dev.clrscope.dac;

/** Where an object lives in the GC heap. */
public enum Generation {
  GEN0("0"),
  GEN1("1"),
  GEN2("2"),
  /** The large object heap (SOS's generation 3). */
  LARGE("LOH"),
  /** The pinned object heap (SOS's generation 4). */
  PINNED("POH"),
  /** A frozen (read-only) segment: string literals and other objects allocated at startup. */
  FROZEN("frozen");

  private final String label;

  Generation(String label) {
    this.label = label;
  }

  /** {@code 0}, {@code 1}, {@code 2}, {@code LOH}, {@code POH} or {@code frozen}. */
  public String label() {
    return label;
  }

  /** The number SOS gives it: 0-2, 3 for LOH, 4 for POH, -1 for frozen. */
  public int number() {
    return switch (this) {
      case GEN0 -> 0;
      case GEN1 -> 1;
      case GEN2 -> 2;
      case LARGE -> 3;
      case PINNED -> 4;
      case FROZEN -> -1;
    };
  }
}
