package dev.clrscope.cli.commands.counters;

import dev.clrscope.monitor.counters.InstrumentType;
import dev.clrscope.monitor.counters.Measurement;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Map;

/** How counters read as text: numbers, units, tags and percentile names, the same everywhere. */
final class CounterText {
  private CounterText() {}

  /**
   * A number at full precision without an exponent ({@code 70}, {@code 0.0780173}), for files;
   * {@code NaN}, {@code Infinity}, {@code -Infinity} as such; null as empty.
   */
  static String exact(Double d) {
    if (d == null) {
      return "";
    }
    if (!Double.isFinite(d)) {
      return d.isNaN() ? "NaN" : (d > 0 ? "Infinity" : "-Infinity");
    }
    if (d == Math.rint(d) && Math.abs(d) < 1e15) {
      return Long.toString(d.longValue());
    }
    return BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
  }

  /**
   * A number for a person: grouped thousands, at most three decimals ({@code 89,304}, {@code
   * 0.078}).
   */
  static String display(Double d) {
    if (d == null) {
      return "-";
    }
    if (!Double.isFinite(d)) {
      return exact(d);
    }
    BigDecimal b = BigDecimal.valueOf(d).setScale(3, RoundingMode.HALF_EVEN).stripTrailingZeros();
    if (b.scale() <= 0) {
      return String.format(java.util.Locale.ROOT, "%,d", b.longValue());
    }
    String plain = b.toPlainString();
    int dot = plain.indexOf('.');
    String whole =
        String.format(
            java.util.Locale.ROOT, "%,d", new BigDecimal(plain.substring(0, dot)).longValue());
    if (plain.startsWith("-") && whole.charAt(0) != '-') {
      whole = "-" + whole;
    }
    return whole + plain.substring(dot);
  }

  /** {@code p50}, {@code p95}, {@code p99.9} for quantiles 0.5, 0.95, 0.999. */
  static String percentile(double quantile) {
    return "p" + BigDecimal.valueOf(quantile * 100).stripTrailingZeros().toPlainString();
  }

  /** Tags as {@code k=v;k=v} (dotnet-counters' CSV form), empty when there are none. */
  static String tags(Map<String, String> tags) {
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<String, String> t : tags.entrySet()) {
      if (sb.length() > 0) {
        sb.append(';');
      }
      sb.append(t.getKey()).append('=').append(t.getValue());
    }
    return sb.toString();
  }

  /**
   * The unit as shown beside a name: {@code By / 1 s} for a rate over a one-second interval, the
   * unit alone for a level, empty when there is none and it is no rate.
   */
  static String unit(String unit, InstrumentType type, double intervalSeconds) {
    String u = unit == null ? "" : unit;
    if (type != null && type.isRate()) {
      return (u.isEmpty() ? "count" : u) + " / " + exact(intervalSeconds) + " s";
    }
    return u;
  }

  /**
   * dotnet-counters' counter name: {@code name (unit)} or {@code name (unit / 1 sec)}, and tags.
   */
  static String csvName(Measurement m, double intervalSeconds, String extraTag) {
    StringBuilder sb = new StringBuilder(m.displayName());
    String u = m.unit() == null ? "" : m.unit();
    if (m.type().isRate()) {
      sb.append(" (")
          .append(u.isEmpty() ? "Count" : u)
          .append(" / ")
          .append(exact(intervalSeconds))
          .append(" sec)");
    } else if (!u.isEmpty()) {
      sb.append(" (").append(u).append(')');
    }
    String tags = tags(m.tags());
    if (extraTag != null) {
      tags = tags.isEmpty() ? extraTag : tags + ";" + extraTag;
    }
    if (!tags.isEmpty()) {
      sb.append('[').append(tags).append(']');
    }
    return sb.toString();
  }
}
