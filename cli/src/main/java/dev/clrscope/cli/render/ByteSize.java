package dev.clrscope.cli.render;

import java.util.Locale;

/** Byte counts for people: {@code 512B}, {@code 12.3K}, {@code 4.0M}, {@code 1.2G} (1K = 1024). */
public final class ByteSize {
  private ByteSize() {}

  /** The short form of {@code bytes}, or {@code -} for {@code null}. */
  public static String of(Long bytes) {
    if (bytes == null) {
      return "-";
    }
    long b = bytes;
    if (Math.abs(b) < 1024) {
      return b + "B";
    }
    String units = "KMGTP";
    double v = b;
    int u = -1;
    while (Math.abs(v) >= 1024 && u < units.length() - 1) {
      v /= 1024;
      u++;
    }
    return String.format(Locale.ROOT, "%.1f%c", v, units.charAt(u));
  }
}
