package dev.clrscope.serve;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A duration as serve's query parameters and rules file spell it: a number of seconds ({@code 30},
 * {@code 2.5}) or a number with one unit, {@code ms}, {@code s}, {@code m} or {@code h} ({@code
 * 500ms}, {@code 30s}, {@code 10m}, {@code 1h}).
 */
public final class DurationText {
  private static final Pattern FORM = Pattern.compile("(\\d{1,9}(?:\\.\\d{1,6})?)\\s*(ms|s|m|h)?");

  /** What a message says this form is. */
  public static final String FORMS = "seconds (30), or 500ms, 30s, 10m, 1h";

  private DurationText() {}

  /**
   * Parses {@code text}.
   *
   * @return the duration, or null when {@code text} is not one of the forms
   */
  public static Duration parse(String text) {
    if (text == null) {
      return null;
    }
    Matcher m = FORM.matcher(text.strip());
    if (!m.matches()) {
      return null;
    }
    double n = Double.parseDouble(m.group(1));
    double millis =
        switch (m.group(2) == null ? "s" : m.group(2)) {
          case "ms" -> n;
          case "m" -> n * 60_000;
          case "h" -> n * 3_600_000;
          default -> n * 1000;
        };
    return Duration.ofMillis(Math.round(millis));
  }

  /** How a message shows {@code d}: {@code 500 ms}, {@code 30 s}, {@code 10 min}. */
  public static String show(Duration d) {
    long ms = d.toMillis();
    if (ms % 60_000 == 0 && ms >= 60_000) {
      return ms / 60_000 + " min";
    }
    if (ms % 1000 == 0) {
      return ms / 1000 + " s";
    }
    return ms + " ms";
  }
}
