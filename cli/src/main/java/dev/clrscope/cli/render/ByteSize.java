package dev.clrscope.cli.render;

import java.util.Locale;

/**
 * Byte counts for people, in binary units written as such: {@code 512 B}, {@code 9.87 KiB}, {@code
 * 98.7 MiB}, {@code 987 MiB}, {@code 1.20 GiB}. Three significant digits at most, so the text is
 * never wider than {@link #WIDTH} (a sign aside) and columns of it stay aligned.
 */
public final class ByteSize {
  private ByteSize() {}

  /** The widest text {@link #of(long)} gives for a non-negative count: {@code 1023 KiB}. */
  public static final int WIDTH = 8;

  private static final String[] UNITS = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};

  /** The short form of {@code bytes}, or {@code -} for {@code null}. */
  public static String of(Long bytes) {
    return bytes == null ? "-" : of(bytes.longValue());
  }

  /** The short form of {@code bytes}. */
  public static String of(long bytes) {
    if (Math.abs(bytes) < 1024) {
      return bytes + " B";
    }
    double v = bytes;
    int u = -1;
    while (Math.abs(v) >= 1024 && u < UNITS.length - 1) {
      v /= 1024;
      u++;
    }
    double a = Math.abs(v);
    String digits = a < 9.995 ? "%.2f %s" : a < 99.95 ? "%.1f %s" : "%.0f %s";
    return String.format(Locale.ROOT, digits, v, UNITS[u]);
  }
}
