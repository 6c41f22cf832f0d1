package dev.clrscope.cli.options;

import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/**
 * Parses durations as users of the reference tools write them: {@code 30s}, {@code 1m30s}, {@code
 * 2h}, {@code 500ms}, a plain number of seconds, or dotnet-trace's {@code dd:hh:mm:ss}.
 */
public final class DurationParser implements ITypeConverter<Duration> {
  private static final Pattern UNITS =
      Pattern.compile("(\\d+(?:\\.\\d+)?)(ms|d|h|m|s)", Pattern.CASE_INSENSITIVE);

  @Override
  public Duration convert(String value) {
    return parse(value);
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
        return positive(Duration.ofMillis(Math.round(Double.parseDouble(v) * 1000)), value);
      }
      if (v.contains(":")) {
        String[] parts = v.split(":", -1);
        if (parts.length != 4) {
          throw bad(value);
        }
        long days = Long.parseLong(parts[0]);
        long hours = Long.parseLong(parts[1]);
        long minutes = Long.parseLong(parts[2]);
        long seconds = Long.parseLong(parts[3]);
        return positive(
            Duration.ofDays(days).plusHours(hours).plusMinutes(minutes).plusSeconds(seconds),
            value);
      }
      Matcher m = UNITS.matcher(v);
      int end = 0;
      Duration total = Duration.ZERO;
      while (m.find() && m.start() == end) {
        double n = Double.parseDouble(m.group(1));
        long millis =
            switch (m.group(2)) {
              case "ms" -> Math.round(n);
              case "s" -> Math.round(n * 1_000);
              case "m" -> Math.round(n * 60_000);
              case "h" -> Math.round(n * 3_600_000);
              default -> Math.round(n * 86_400_000);
            };
        total = total.plusMillis(millis);
        end = m.end();
      }
      if (end != v.length() || end == 0) {
        throw bad(value);
      }
      return positive(total, value);
    } catch (NumberFormatException e) {
      throw bad(value);
    }
  }

  private static Duration positive(Duration d, String value) {
    if (d.isZero() || d.isNegative()) {
      throw new TypeConversionException("a duration must be positive, got '" + value + "'");
    }
    return d;
  }

  private static TypeConversionException bad(String value) {
    return new TypeConversionException(
        "'"
            + value
            + "' is not a duration: use 30s, 1m30s, 2h, 500ms, 45 (seconds) or dd:hh:mm:ss");
  }
}
