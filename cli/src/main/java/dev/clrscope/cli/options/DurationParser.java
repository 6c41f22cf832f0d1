package dev.clrscope.cli.options;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Parses durations in clrscope's short form ({@code 30s}, {@code 1m30s}, {@code 2h}, {@code 500ms},
 * {@code 1d}) and in the .NET TimeSpan forms dotnet-trace and dotnet-counters take ({@code hh:mm},
 * {@code hh:mm:ss[.fffffff]}, {@code d.hh:mm:ss[.fffffff]}, {@code dd:hh:mm:ss}). A bare number is
 * refused: clrscope used to read it as seconds and the dotnet tools read it as days, so it names
 * both readings rather than guess.
 */
public final class DurationParser implements ITypeConverter<Duration> {
  /** .NET's TimeSpan.MaxValue, in whole days: the longest duration the reference tools take. */
  static final long MAX_DAYS = 10_675_199;

  private static final Pattern UNITS =
      Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|d|h|m|s)", Pattern.CASE_INSENSITIVE);

  /** {@code [d.]hh:mm[:ss[.fraction]]}: groups days, hours, minutes, seconds, fraction. */
  private static final Pattern DOTTED =
      Pattern.compile("(?:(\\d+)\\.)?(\\d+):(\\d+)(?::(\\d+)(?:\\.(\\d{1,7}))?)?");

  /** {@code d:hh:mm:ss[.fraction]}, dotnet-trace's documented form: the same groups. */
  private static final Pattern COLONS =
      Pattern.compile("(\\d+):(\\d+):(\\d+):(\\d+)(?:\\.(\\d{1,7}))?");

  /**
   * No limit, as a default value: the words the help shows ({@code (default: until stopped)}) are
   * the option's default in picocli's model, read as {@code null}, so help and value cannot differ.
   */
  public static final String UNTIL_STOPPED = "until stopped";

  @Override
  public Duration convert(String value) {
    return value.equals(UNTIL_STOPPED) ? null : parse(value);
  }

  /**
   * Parses a duration.
   *
   * @throws TypeConversionException with the accepted forms, for picocli to report as a usage error
   */
  public static Duration parse(String value) {
    String v = value.strip().toLowerCase(Locale.ROOT);
    try {
      if (v.matches("\\d+(\\.\\d+)?")) {
        throw new TypeConversionException(
            "'"
                + value
                + "' has no unit: write "
                + v
                + "s for seconds (clrscope's reading before), or "
                + v
                + ".00:00:00 or "
                + v
                + "d for days (dotnet-trace's reading)");
      }
      for (Pattern form : new Pattern[] {COLONS, DOTTED}) {
        Matcher span = form.matcher(v);
        if (span.matches()) {
          return timeSpan(span, value);
        }
      }
      Matcher m = UNITS.matcher(v);
      int end = 0;
      BigDecimal millis = BigDecimal.ZERO;
      while (m.find() && m.start() == end) {
        BigDecimal n = new BigDecimal(m.group(1));
        long unit =
            switch (m.group(2)) {
              case "ms" -> 1;
              case "s" -> 1_000;
              case "m" -> 60_000;
              case "h" -> 3_600_000;
              default -> 86_400_000;
            };
        millis = millis.add(n.multiply(BigDecimal.valueOf(unit)));
        end = m.end();
      }
      if (end != v.length() || end == 0) {
        throw bad(value);
      }
      return checked(millis, value);
    } catch (NumberFormatException | ArithmeticException e) {
      throw bad(value);
    }
  }

  private static Duration timeSpan(Matcher span, String value) {
    long days = span.group(1) == null ? 0 : Long.parseLong(span.group(1));
    long hours = Long.parseLong(span.group(2));
    long minutes = Long.parseLong(span.group(3));
    long seconds = span.group(4) == null ? 0 : Long.parseLong(span.group(4));
    if (hours > 23 || minutes > 59 || seconds > 59) {
      throw new TypeConversionException(
          "'"
              + value
              + "' is out of range: hours go to 23, minutes and seconds to 59 (as .NET's TimeSpan"
              + " reads them)");
    }
    BigDecimal fraction =
        span.group(5) == null ? BigDecimal.ZERO : new BigDecimal("0." + span.group(5));
    BigDecimal millis =
        BigDecimal.valueOf(days)
            .multiply(BigDecimal.valueOf(86_400_000))
            .add(BigDecimal.valueOf(hours * 3_600_000 + minutes * 60_000 + seconds * 1_000))
            .add(fraction.multiply(BigDecimal.valueOf(1_000)));
    return checked(millis, value);
  }

  /** Positive and no longer than {@link #MAX_DAYS}; rounded to the millisecond. */
  private static Duration checked(BigDecimal millis, String value) {
    if (millis.compareTo(BigDecimal.valueOf(MAX_DAYS).multiply(BigDecimal.valueOf(86_400_000)))
        > 0) {
      throw new TypeConversionException(
          "'" + value + "' is too long: a duration is at most " + MAX_DAYS + " days");
    }
    Duration d = Duration.ofMillis(millis.setScale(0, RoundingMode.HALF_UP).longValueExact());
    if (d.isZero() || d.isNegative()) {
      throw new TypeConversionException("a duration must be positive, got '" + value + "'");
    }
    return d;
  }

  private static TypeConversionException bad(String value) {
    return new TypeConversionException(
        "'"
            + value
            + "' is not a duration: use 30s, 1m30s, 2h, 500ms, 1d, or hh:mm:ss, d.hh:mm:ss or"
            + " dd:hh:mm:ss as dotnet-trace takes them");
  }
}
