package dev.clrscope.cli.render;

import java.util.ArrayList;
import java.util.List;

/**
 * The widths of a table's columns for a terminal: every column as wide as its widest cell when
 * there is room; otherwise the key column (what a row is about: a method, a type, a URL) as wide as
 * it can be, then the most useful other columns that fit (a column with nothing in it last), text
 * whole where it fits and else cut with {@code ...}. Numbers are never cut; the key is cut last.
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
   * @param key the key of the column a row is about, or {@code null}
   */
  static <R> ColumnLayout fit(
      List<Field<R>> fields,
      List<Field<R>> ranked,
      List<String[]> cells,
      int maxWidth,
      String key) {
    int n = fields.size();
    int[] natural = new int[n];
    boolean[] empty = new boolean[n];
    java.util.Arrays.fill(empty, true);
    for (int i = 0; i < n; i++) {
      natural[i] = fields.get(i).label().length();
    }
    for (String[] row : cells) {
      for (int i = 0; i < n; i++) {
        natural[i] = Math.max(natural[i], row[i].length());
        if (!row[i].isEmpty() && !row[i].equals("-")) {
          empty[i] = false;
        }
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
    // The order columns are chosen in: most useful first, a column with nothing in it after all
    // that have something.
    List<Integer> order = new ArrayList<>();
    for (boolean wantEmpty : new boolean[] {false, true}) {
      for (Field<R> f : ranked) {
        int i = RecordSchema.indexOf(fields, f);
        if (empty[i] == wantEmpty) {
          order.add(i);
        }
      }
    }
    int keyAt = -1;
    for (int i = 0; i < n; i++) {
      if (fields.get(i).key().equals(key)) {
        keyAt = i;
      }
    }
    int[] width = new int[n];
    int used = -GAP;
    if (keyAt >= 0) {
      // The key as wide as its widest cell, leaving room for the next most useful column.
      int next = 0;
      for (int i : order) {
        if (i != keyAt) {
          next = GAP + least(fields.get(i), natural[i]);
          break;
        }
      }
      shown[keyAt] = true;
      width[keyAt] =
          Math.max(
              Math.min(least(fields.get(keyAt), natural[keyAt]), maxWidth),
              Math.min(natural[keyAt], maxWidth - next));
      used = width[keyAt];
    }
    for (int i : order) {
      if (i == keyAt) {
        continue;
      }
      Field<R> f = fields.get(i);
      // Text whole when it fits, else cut to the narrowest it may be.
      int w = used + GAP + natural[i] <= maxWidth ? natural[i] : least(f, natural[i]);
      if (used + GAP + w > maxWidth) {
        if (used < 0) {
          // Not even the most useful column fits: show it, cut.
          shown[i] = true;
          width[i] = Math.max(1, maxWidth);
          used = width[i];
        }
        continue;
      }
      shown[i] = true;
      width[i] = w;
      used += GAP + w;
    }
    // What is left widens the cut text columns: the key first, then the widest.
    int spare = maxWidth - used;
    if (keyAt >= 0 && spare > 0 && width[keyAt] < natural[keyAt]) {
      int grow = Math.min(spare, natural[keyAt] - width[keyAt]);
      width[keyAt] += grow;
      spare -= grow;
    }
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

  /** The narrowest a column may be: a number whole, text cut to {@link #MIN_TEXT} at least. */
  private static int least(Field<?> f, int natural) {
    return shrinkable(f) ? Math.min(natural, Math.max(MIN_TEXT, f.label().length())) : natural;
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
      String c = cutTo(cells[i], width[i], fields.get(i).cutStart());
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
    return cutTo(text, width, false);
  }

  /**
   * {@code text} no longer than {@code width}, cut with {@code ...} at its end, or with {@code
   * fromStart} at its start after its indentation (a tree's depth stays): {@code ...Program.Work
   * (Program.cs:42)}.
   */
  static String cutTo(String text, int width, boolean fromStart) {
    if (text.length() <= width) {
      return text;
    }
    if (fromStart) {
      int indent = 0;
      while (indent < text.length() && text.charAt(indent) == ' ') {
        indent++;
      }
      int keep = width - indent - ELLIPSIS.length();
      if (keep > 0) {
        return text.substring(0, indent) + ELLIPSIS + text.substring(text.length() - keep);
      }
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
