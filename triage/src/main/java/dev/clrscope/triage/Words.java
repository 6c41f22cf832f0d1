package dev.clrscope.triage;

import java.util.List;
import java.util.Locale;

/** Numbers and lists in the sentences of findings: exact, with thousands separators. */
final class Words {
  private Words() {}

  /** {@code 5,048,666}. */
  static String count(long n) {
    return String.format(Locale.ROOT, "%,d", n);
  }

  /** {@code 1 thread}, {@code 4 threads}. */
  static String count(long n, String one, String many) {
    return count(n) + " " + (n == 1 ? one : many);
  }

  /** {@code 42,138,012 bytes}. */
  static String bytes(long n) {
    return count(n, "byte", "bytes");
  }

  /** {@code 84.8%}. */
  static String percent(double fraction) {
    return String.format(Locale.ROOT, "%.1f%%", fraction * 100);
  }

  /** {@code a, b and c}. */
  static String and(List<String> items) {
    if (items.size() <= 1) {
      return items.isEmpty() ? "" : items.get(0);
    }
    return String.join(", ", items.subList(0, items.size() - 1))
        + " and "
        + items.get(items.size() - 1);
  }

  /** Text cut to {@code max} characters with an ellipsis. */
  static String cut(String text, int max) {
    return text.length() <= max ? text : text.substring(0, max - 1) + "\u2026";
  }
}
