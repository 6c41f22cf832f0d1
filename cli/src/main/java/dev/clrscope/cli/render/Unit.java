package dev.clrscope.cli.render;

import java.math.BigDecimal;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Collection;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What a field's value is, and so how each format prints it: the one number style of every command.
 * JSON and CSV get the exact value (plain numbers, bytes, milliseconds, UTC ISO-8601 instants); a
 * table gets the form a person reads (thousands separators, binary units, local time).
 */
public enum Unit {
  /** Free text, left-aligned. */
  TEXT(false, 0),
  /** A whole number: {@code 5,048,666} in a table. */
  COUNT(true, 0),
  /** A number that names something (a process, a thread, a GC): no separators. */
  ID(true, 0),
  /** A byte count: {@code 12.3 MiB} in a table. */
  BYTES(true, ByteSize.WIDTH),
  /** Milliseconds: three decimals in a table. */
  MILLIS(true, 0),
  /** Seconds: three decimals in a table. */
  SECONDS(true, 0),
  /** A percentage: two decimals in a table. */
  PERCENT(true, 0),
  /** A number with decimals, printed as it comes (a rate, a ratio). */
  DECIMAL(true, 0),
  /** An {@link Instant}: local {@code HH:mm:ss.SSS} in a table, UTC ISO-8601 elsewhere. */
  TIME(false, 12),
  /** A list of words: a JSON array, space-separated in CSV, comma-separated in a table. */
  WORDS(false, 0),
  /** A memory address or handle: {@code 0x7f12a0} in every format (a string in JSON). */
  ADDRESS(true, 0);

  /** Made on first use: the time zone's rules are read from disk, a cost no listing should pay. */
  private static final class LocalTime {
    static final DateTimeFormatter FORMAT =
        DateTimeFormatter.ofPattern("HH:mm:ss.SSS", Locale.ROOT).withZone(ZoneId.systemDefault());
  }

  private final boolean rightAligned;
  private final int minWidth;

  Unit(boolean rightAligned, int minWidth) {
    this.rightAligned = rightAligned;
    this.minWidth = minWidth;
  }

  /** Whether table cells of this unit align right. */
  public boolean rightAligned() {
    return rightAligned;
  }

  /** The narrowest table column that holds any value of this unit in its short form. */
  public int minWidth() {
    return minWidth;
  }

  /** The table cell of a value; {@code -} for none. */
  public String text(Object value) {
    if (value == null) {
      return "-";
    }
    return switch (this) {
      case COUNT ->
          value instanceof Long || value instanceof Integer || value instanceof Short
              ? count(((Number) value).longValue())
              : value.toString();
      case BYTES -> bytes(((Number) value).longValue());
      case MILLIS, SECONDS -> decimals(value, 3);
      case PERCENT -> decimals(value, 2);
      case TIME -> time((Instant) value);
      case WORDS -> words((Collection<?>) value, ",");
      case ADDRESS -> value instanceof Number n ? address(n.longValue()) : value.toString();
      default -> value.toString();
    };
  }

  // The one formatter of each kind of value a person reads, in a table or a sentence: every
  // command's text goes through these, so a kind of value reads the same everywhere.

  /** A whole number with thousands separators: {@code 5,048,666}. */
  public static String count(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  /** A byte count in binary units written as such: {@code 512 B}, {@code 45.9 MiB}. */
  public static String bytes(long n) {
    return ByteSize.of(n);
  }

  /**
   * A duration: milliseconds below a second ({@code 801.717 ms}), seconds below a minute ({@code
   * 4.250 s}), then minutes and seconds ({@code 2:03}) and hours ({@code 1:02:03}).
   */
  public static String duration(long nanos) {
    if (Math.abs(nanos) < 1_000_000_000L) {
      return String.format(Locale.ROOT, "%.3f ms", nanos / 1e6);
    }
    if (Math.abs(nanos) < 60_000_000_000L) {
      return String.format(Locale.ROOT, "%.3f s", nanos / 1e9);
    }
    long s = nanos / 1_000_000_000L;
    return s < 3600
        ? String.format(Locale.ROOT, "%d:%02d", s / 60, s % 60)
        : String.format(Locale.ROOT, "%d:%02d:%02d", s / 3600, (s / 60) % 60, s % 60);
  }

  /** {@link #duration(long)} of a {@link java.time.Duration}. */
  public static String duration(java.time.Duration d) {
    return duration(d.toNanos());
  }

  /** {@link #duration(long)} of a number of milliseconds. */
  public static String durationMillis(double millis) {
    return duration(Math.round(millis * 1e6));
  }

  /**
   * An instant as a person reads it: the local time of day to the millisecond, {@code
   * 12:34:56.789}. JSON and CSV carry the UTC instant ({@link #json}).
   */
  public static String time(Instant t) {
    return LocalTime.FORMAT.format(t);
  }

  /** A memory address, a handle or an instruction pointer: {@code 0x7f12a0}. */
  public static String address(long a) {
    return "0x" + Long.toHexString(a);
  }

  /** The value as JSON carries it. */
  public Object json(Object value) {
    if (value instanceof Instant) {
      return value.toString();
    }
    if (this == ADDRESS && value instanceof Number n) {
      return address(n.longValue());
    }
    return value;
  }

  /** The CSV field of a value, before quoting. */
  public Object csv(Object value) {
    if (value instanceof Collection<?> c) {
      return words(c, " ");
    }
    return value;
  }

  /** {@code part} as a percentage of {@code whole}, two decimals: a {@link #PERCENT} value. */
  public static BigDecimal percent(long part, long whole) {
    return whole == 0
        ? BigDecimal.ZERO.setScale(2)
        : BigDecimal.valueOf(part * 100.0 / whole).setScale(2, java.math.RoundingMode.HALF_UP);
  }

  private static String decimals(Object value, int places) {
    if (value instanceof BigDecimal b) {
      return b.toPlainString();
    }
    if (value instanceof Number n) {
      return String.format(Locale.ROOT, "%,." + places + "f", n.doubleValue());
    }
    return value.toString();
  }

  private static String words(Collection<?> c, String separator) {
    return c.stream().map(String::valueOf).collect(Collectors.joining(separator));
  }
}
