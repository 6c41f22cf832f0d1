package dev.clrscope.cli.render;

import dev.clrscope.cli.options.OutputFormat;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/** Prints tables, and single records, in the three output formats. */
public final class TableRenderer {
  private final PrintStream out;

  /** A renderer that prints to {@code out} (stdout). */
  public TableRenderer(PrintStream out) {
    this.out = out;
  }

  /** Prints a listing: aligned columns, a JSON array of objects, or CSV with a header of keys. */
  public void list(Table table, OutputFormat format) {
    switch (format) {
      case json:
        out.println(JsonText.of(table.objects()));
        break;
      case csv:
        csvRow(table.columns().stream().map(Column::key).toList());
        table.rows().forEach(this::csvRow);
        break;
      default:
        aligned(table);
        break;
    }
    out.flush();
  }

  /**
   * Prints one record, the table's single row: {@code Label value} lines, a JSON object, or CSV
   * with a header of keys.
   */
  public void record(Table table, OutputFormat format) {
    if (table.rows().size() != 1) {
      throw new IllegalArgumentException("a record is a table with one row");
    }
    List<Object> row = table.rows().get(0);
    switch (format) {
      case json:
        out.println(JsonText.of(table.objects().get(0)));
        break;
      case csv:
        list(table, format);
        break;
      default:
        int width = table.columns().stream().mapToInt(c -> c.label().length()).max().orElse(0);
        for (int i = 0; i < row.size(); i++) {
          out.println(pad(table.columns().get(i).label(), width) + "  " + cell(row.get(i)));
        }
        break;
    }
    out.flush();
  }

  private void aligned(Table table) {
    List<Column> cols = table.columns();
    int[] width = new int[cols.size()];
    for (int i = 0; i < cols.size(); i++) {
      width[i] = cols.get(i).label().length();
    }
    for (List<Object> row : table.rows()) {
      for (int i = 0; i < cols.size(); i++) {
        width[i] = Math.max(width[i], cell(row.get(i)).length());
      }
    }
    List<String> header = new ArrayList<>();
    for (Column c : cols) {
      header.add(c.label());
    }
    out.println(line(cols, width, header));
    for (List<Object> row : table.rows()) {
      List<String> cells = new ArrayList<>();
      for (Object v : row) {
        cells.add(cell(v));
      }
      out.println(line(cols, width, cells));
    }
  }

  private static String line(List<Column> cols, int[] width, List<String> cells) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < cells.size(); i++) {
      boolean last = i == cells.size() - 1;
      String c = cells.get(i);
      if (cols.get(i).numeric()) {
        sb.append(" ".repeat(width[i] - c.length())).append(c);
      } else {
        sb.append(last ? c : pad(c, width[i]));
      }
      if (!last) {
        sb.append("  ");
      }
    }
    return sb.toString().stripTrailing();
  }

  private static String pad(String s, int width) {
    return s.length() >= width ? s : s + " ".repeat(width - s.length());
  }

  private static String cell(Object v) {
    return v == null ? "-" : v.toString();
  }

  private void csvRow(List<?> values) {
    out.println(CsvText.row(values));
  }
}
