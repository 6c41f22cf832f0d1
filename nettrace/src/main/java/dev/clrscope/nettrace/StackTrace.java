package dev.clrscope.nettrace;

import java.util.Arrays;

/**
 * An interned call stack: instruction pointers, innermost frame first. Instances are shared by all
 * events that refer to the same stack id, so the array is never handed out directly.
 */
public final class StackTrace {
  /** The stack of events without one (stack id 0). */
  public static final StackTrace EMPTY = new StackTrace(new long[0]);

  private final long[] ips;

  private StackTrace(long[] ips) {
    this.ips = ips;
  }

  /** A stack holding a copy of {@code ips}. */
  public static StackTrace of(long... ips) {
    return ips.length == 0 ? EMPTY : new StackTrace(ips.clone());
  }

  static StackTrace wrap(long[] ips) {
    return ips.length == 0 ? EMPTY : new StackTrace(ips);
  }

  /** Number of frames. */
  public int depth() {
    return ips.length;
  }

  /** Instruction pointer of frame {@code i} (0 = innermost). */
  public long frame(int i) {
    return ips[i];
  }

  /** A copy of all instruction pointers. */
  public long[] frames() {
    return ips.clone();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof StackTrace s && Arrays.equals(ips, s.ips);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(ips);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder("[");
    for (int i = 0; i < ips.length; i++) {
      if (i > 0) {
        sb.append(", ");
      }
      sb.append("0x").append(Long.toHexString(ips[i]));
    }
    return sb.append(']').toString();
  }
}
