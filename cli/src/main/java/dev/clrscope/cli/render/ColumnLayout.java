package dev.clrscope.cli.render;

import java.util.ArrayList;
import java.util.List;

/**
 * The widths of a table's columns for a terminal: every column as wide as its widest cell when
 * there is room; otherwise the most useful columns that fit, and the widest text column cut with
 * {@code ...}. Numbers are never cut.
 */
final class ColumnLayout {
  /** What a cut cell ends with. */
  static final String ELLIPSIS = "...";

  /** A text column is never cut narrower than this (or its heading). */
  private static final int MIN_TEXT = 10;

  private static final int GAP = 2;

  private final List<? extends Field<?>> fields;
  private final int[] width;
  private final boolean[] shown;

  private ColumnLayout(List<? extends Field<?>> fields, int[] width, boolean[] shown) {
    this.fields = fields;
    this.width = width;
    this.shown = shown;
  }

  /**
   * The layout of {@code cells} (one array per row, a cell per field) within {@code maxWidth}
   * characters (0: no limit).
   *
   * @param ranked the same fields, most useful first
   */
  static <R> ColumnLayout fit(
      List<Field<R>> fields, List<Field<R>> ranked, List<String[]> cells, int maxWidth) {
    int n = fields.size();
    int[] natural = new int[n];
    for (int i = 0; i < n; i++) {
      natural[i] = fields.get(i).label().length();
    }
    for (String[] row : cells) {
      for (int i = 0; i < n; i++) {
        natural[i] = Math.max(natural[i], row[i].length());
      }
    }
    boolean[] shown = new boolean[n];
    int total = -GAP;
    for (int i = 0; i < n; i++) {
      total += natural[i] + GAP;
    }
    if (maxWidth <= 0 || total <= maxWidth) {
      java.util.Arrays.fill(shown, true);
      return new ColumnLayout(fields, natural, shown);
    }
    int[] width = new int[n];
    int used = -GAP;
    for (Field<R> f : ranked) {
      int i = RecordSchema.indexOf(fields, f);
      int least =
          shrinkable(f) ? Math.min(natural[i], Math.max(MIN_TEXT, f.label().length())) : natural[i];
      if (used + GAP + least > maxWidth) {
        if (used < 0) {
          // Not even the most useful column fits: show it, cut.
          shown[i] = true;
          width[i] = Math.max(1, maxWidth);
          used = width[i];
        }
        continue;
      }
      shown[i] = true;
      width[i] = least;
      used += GAP + least;
    }
    // What is left widens the cut text columns, the widest first.
    int spare = maxWidth - used;
    while (spare > 0) {
      int widest = -1;
      for (int i = 0; i < n; i++) {
        if (shown[i] && width[i] < natural[i] && (widest < 0 || natural[i] > natural[widest])) {
          widest = i;
        }
      }
      if (widest < 0) {
        break;
      }
      int grow = Math.min(spare, natural[widest] - width[widest]);
      width[widest] += grow;
      spare -= grow;
    }
    return new ColumnLayout(fields, width, shown);
  }

  private static boolean shrinkable(Field<?> f) {
    return !f.unit().rightAligned();
  }

  /** The heading line. */
  String header() {
    String[] labels = new String[fields.size()];
    for (int i = 0; i < labels.length; i++) {
      labels[i] = fields.get(i).label();
    }
    return line(labels);
  }

  /** The line of one row's cells. */
  String line(String[] cells) {
    List<Integer> columns = new ArrayList<>();
    for (int i = 0; i < cells.length; i++) {
      if (shown[i]) {
        columns.add(i);
      }
    }
    StringBuilder sb = new StringBuilder();
    for (int k = 0; k < columns.size(); k++) {
      int i = columns.get(k);
      boolean last = k == columns.size() - 1;
      String c = cutTo(cells[i], width[i]);
      if (k > 0) {
        sb.append("  ");
      }
      int pad = width[i] - c.length();
      if (fields.get(i).unit().rightAligned()) {
        sb.append(" ".repeat(pad)).append(c);
      } else {
        sb.append(c);
        if (!last) {
          sb.append(" ".repeat(pad));
        }
      }
    }
    return sb.toString().stripTrailing();
  }

  /** {@code text} no longer than {@code width}: cut, with {@code ...}, when it is longer. */
  static String cutTo(String text, int width) {
    if (text.length() <= width) {
      return text;
    }
    return width > ELLIPSIS.length()
        ? text.substring(0, width - ELLIPSIS.length()) + ELLIPSIS
        : text.substring(0, Math.max(0, width));
  }

  /** A line no wider than {@code maxWidth} (0: any width). */
  static String cut(String line, int maxWidth) {
    return maxWidth > 0 ? cutTo(line, maxWidth) : line;
  }
}
