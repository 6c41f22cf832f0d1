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

  /**
   * A number shortened for a glance: below a thousand as {@link #display}; else two decimals at
   * most and a suffix of K (10^3), M (10^6), G (10^9) or T (10^12): {@code 573.72M}.
   */
  static String abbreviated(Double d) {
    if (d == null || !Double.isFinite(d) || Math.abs(d) < 1000) {
      return display(d);
    }
    String[] suffixes = {"K", "M", "G", "T"};
    BigDecimal v = BigDecimal.valueOf(d);
    BigDecimal thousand = BigDecimal.valueOf(1000);
    int i = -1;
    // Compare after rounding: 999,999 is 1M, not 1000K.
    while (i < suffixes.length - 1
        && v.setScale(2, RoundingMode.HALF_EVEN).abs().compareTo(thousand) >= 0) {
      v = v.divide(thousand);
      i++;
    }
    return v.setScale(2, RoundingMode.HALF_EVEN).stripTrailingZeros().toPlainString() + suffixes[i];
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
    String tags = csvTags(m, extraTag);
    String name = nameWithUnit(m, intervalSeconds);
    return tags.isEmpty() ? name : name + "[" + tags + "]";
  }

  /** dotnet-counters' display name: the name, then the unit ({@code (Count / 1 sec)} for rates). */
  static String nameWithUnit(Measurement m, double intervalSeconds) {
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
    return sb.toString();
  }

  /** The tags as dotnet-counters writes them, {@code k=v;k=v}, with {@code extraTag} appended. */
  static String csvTags(Measurement m, String extraTag) {
    String tags = tags(m.tags());
    if (extraTag != null) {
      tags = tags.isEmpty() ? extraTag : tags + ";" + extraTag;
    }
    return tags;
  }
}
