package dev.clrscope.cli.commands.counters;

import dev.clrscope.cli.render.TextRenderer;
import dev.clrscope.monitor.counters.CounterBoard;
import dev.clrscope.monitor.counters.CounterSource;
import dev.clrscope.monitor.counters.InstrumentType;
import dev.clrscope.monitor.counters.Measurement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The lines of {@code counters monitor}'s view: one group per provider, one line per time series
 * (per percentile for histograms), name with unit and tags on the left, the value right-aligned,
 * and with {@code --show-deltas} its change since the previous interval. Plain text: the caller
 * decides whether to redraw it in place or print it as a block.
 */
final class BoardLines {
  static final String WAITING = "waiting for first value";

  /** A name is never cut narrower than this. */
  private static final int MIN_LABEL = 20;

  private BoardLines() {}

  /**
   * A line of the board: its label is the series' name (with its unit) then what tells series of
   * one name apart (its tags, a percentile), which a narrow terminal keeps whole.
   */
  private record Line(String name, String distinct, String value, String rate, String delta) {
    String label() {
      return name + distinct;
    }
  }

  /**
   * The label cut to {@code width}: the name loses its start first ({@code ...heap.size (By)
   * [gc.heap.generation=gen0]}), so that the tags that tell five series of one name apart stay;
   * only when even they do not fit is the end cut.
   */
  private static String fitLabel(Line l, int width) {
    String label = l.label();
    if (label.length() <= width) {
      return label;
    }
    String indent = "    ";
    int room = width - indent.length() - l.distinct().length();
    String name = l.name().strip();
    if (room >= MIN_NAME) {
      return indent + "..." + name.substring(name.length() - (room - 3)) + l.distinct();
    }
    return TextRenderer.cut(label, width);
  }

  /** A name cut from its start keeps at least this much of its end. */
  private static final int MIN_NAME = 12;

  /** The view's lines for these rows. */
  static List<String> render(List<CounterBoard.Row> rows, double intervalSeconds, boolean deltas) {
    return render(rows, intervalSeconds, deltas, false, 0);
  }

  /**
   * As above; {@code abbreviate}: values of a thousand and more with a K/M/G/T suffix. No line is
   * wider than {@code columns} (0: any width): the names are cut first, with {@code ...}, so the
   * values stay whole and a redraw in place never wraps.
   */
  static List<String> render(
      List<CounterBoard.Row> rows,
      double intervalSeconds,
      boolean deltas,
      boolean abbreviate,
      int columns) {
    java.util.function.Function<Double, String> number =
        abbreviate ? CounterText::abbreviated : CounterText::display;
    List<Object> items = new ArrayList<>();
    String group = null;
    for (CounterBoard.Row r : rows) {
      String g =
          "["
              + r.provider()
              + "] "
              + (r.source() == CounterSource.METER ? "Meter" : "EventCounters");
      if (!g.equals(group)) {
        items.add(g);
        group = g;
      }
      Measurement m = r.latest();
      // A Meter counter shows its running total, as dotnet-counters does, with the interval's
      // rate beside it; EventCounters and runtimes that send no total show the rate alone.
      boolean total =
          r.source() == CounterSource.METER
              && r.type() != null
              && r.type().isRate()
              && m != null
              && m.value() != null;
      String unit =
          total
              ? (r.unit() == null ? "" : r.unit())
              : CounterText.unit(r.unit(), r.type(), intervalSeconds);
      String base = "    " + r.name() + (unit.isEmpty() ? "" : " (" + unit + ")");
      String tags = CounterText.tags(r.tags());
      String distinct = tags.isEmpty() ? "" : " [" + tags + "]";
      if (m == null) {
        items.add(new Line(base, distinct, WAITING, "", ""));
      } else if (m.type() == InstrumentType.HISTOGRAM) {
        if (m.quantiles().isEmpty()) {
          items.add(new Line(base, distinct, "no values in the interval", "", ""));
        }
        for (Map.Entry<Double, Double> q : m.quantiles().entrySet()) {
          items.add(
              new Line(
                  base,
                  distinct + " " + CounterText.percentile(q.getKey()),
                  number.apply(q.getValue()),
                  "",
                  ""));
        }
      } else {
        String delta = deltas && r.delta() != null ? signed(r.delta()) : "";
        if (total) {
          String rate = m.rate() == null ? "" : number.apply(m.rate());
          items.add(new Line(base, distinct, number.apply(m.value()), rate, delta));
        } else {
          items.add(new Line(base, distinct, number.apply(m.primary()), "", delta));
        }
      }
    }
    int labelWidth = 0;
    int valueWidth = 0;
    int rateWidth = 0;
    for (Object o : items) {
      if (o instanceof Line l) {
        labelWidth = Math.max(labelWidth, l.label().length());
        if (!l.value().equals(WAITING)) {
          valueWidth = Math.max(valueWidth, l.value().length());
        }
        rateWidth = Math.max(rateWidth, l.rate().length());
      }
    }
    valueWidth = Math.max(valueWidth, 12);
    String rateTitle = "Rate / " + CounterText.exact(intervalSeconds) + " s";
    if (rateWidth > 0) {
      rateWidth = Math.max(rateWidth, rateTitle.length());
    }
    if (columns > 0) {
      int deltaWidth = deltas ? "  Delta".length() : 0;
      for (Object o : items) {
        if (o instanceof Line l && !l.delta().isEmpty()) {
          deltaWidth = Math.max(deltaWidth, 2 + l.delta().length());
        }
      }
      int rest = 2 + valueWidth + (rateWidth > 0 ? 2 + rateWidth : 0) + deltaWidth;
      labelWidth = Math.min(labelWidth, Math.max(MIN_LABEL, columns - rest));
    }
    List<String> out = new ArrayList<>();
    if (deltas || rateWidth > 0) {
      out.add(
          (pad("", labelWidth)
                  + "  "
                  + left("Value", valueWidth)
                  + (rateWidth > 0 ? "  " + left(rateTitle, rateWidth) : "")
                  + (deltas ? "  Delta" : ""))
              .stripTrailing());
      out.set(0, TextRenderer.cut(out.get(0), columns));
    }
    for (Object o : items) {
      if (o instanceof Line l) {
        String value = l.value().equals(WAITING) ? l.value() : left(l.value(), valueWidth);
        String line = pad(fitLabel(l, labelWidth), labelWidth) + "  " + value;
        if (rateWidth > 0) {
          line += "  " + left(l.rate(), rateWidth);
        }
        if (!l.delta().isEmpty()) {
          line += "  " + l.delta();
        }
        out.add(TextRenderer.cut(line.stripTrailing(), columns));
      } else {
        out.add(TextRenderer.cut((String) o, columns));
      }
    }
    return out;
  }

  /** The newest event time among the rows, or null. */
  static Instant newest(List<CounterBoard.Row> rows) {
    return rows.stream()
        .map(CounterBoard.Row::latest)
        .filter(Objects::nonNull)
        .map(Measurement::time)
        .max(Instant::compareTo)
        .orElse(null);
  }

  private static String signed(double d) {
    String s = CounterText.display(d);
    return d > 0 ? "+" + s : s;
  }

  private static String pad(String s, int width) {
    return s.length() >= width ? s : s + " ".repeat(width - s.length());
  }

  private static String left(String s, int width) {
    return s.length() >= width ? s : " ".repeat(width - s.length()) + s;
  }
}
