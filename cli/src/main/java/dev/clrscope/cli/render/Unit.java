package dev.clrscope.cli.render;

import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Collection;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What a field's value is, and so how each format prints it. JSON and CSV get the exact value
 * (bytes, milliseconds, UTC ISO-8601 instants); a table gets the short form a person reads.
 */
public enum Unit {
  /** Free text, left-aligned. */
  TEXT(false),
  /** A whole number. */
  COUNT(true),
  /** A byte count: {@code 12.3M} in a table. */
  BYTES(true),
  /** Milliseconds: three decimals in a table. */
  MILLIS(true),
  /** A percentage, printed as it comes. */
  PERCENT(true),
  /** An {@link Instant}: local {@code HH:mm:ss.SSS} in a table, UTC ISO-8601 elsewhere. */
  TIME(false),
  /** A list of words: a JSON array, space-separated in CSV, comma-separated in a table. */
  WORDS(false);

  private static final DateTimeFormatter LOCAL_TIME =
      DateTimeFormatter.ofPattern("HH:mm:ss.SSS", Locale.ROOT).withZone(ZoneId.systemDefault());

  private final boolean rightAligned;

  Unit(boolean rightAligned) {
    this.rightAligned = rightAligned;
  }

  /** Whether table cells of this unit align right. */
  public boolean rightAligned() {
    return rightAligned;
  }

  /** The table cell of a value; {@code -} for none. */
  public String text(Object value) {
    if (value == null) {
      return "-";
    }
    return switch (this) {
      case BYTES -> ByteSize.of(((Number) value).longValue());
      case MILLIS -> String.format(Locale.ROOT, "%.3f", ((Number) value).doubleValue());
      case TIME -> LOCAL_TIME.format((Instant) value);
      case WORDS -> words((Collection<?>) value, ",");
      default -> value.toString();
    };
  }

  /** The value as JSON carries it. */
  public Object json(Object value) {
    return value instanceof Instant ? value.toString() : value;
  }

  /** The CSV field of a value, before quoting. */
  public Object csv(Object value) {
    if (value instanceof Collection<?> c) {
      return words(c, " ");
    }
    return value;
  }

  private static String words(Collection<?> c, String separator) {
    return c.stream().map(String::valueOf).collect(Collectors.joining(separator));
  }
}
