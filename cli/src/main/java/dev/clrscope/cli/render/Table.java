package dev.clrscope.cli.render;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Rows of values under named columns: what every listing command produces, whatever the output
 * format. A {@code null} value is printed as {@code -} in a table, {@code null} in JSON and an
 * empty field in CSV.
 */
public final class Table {
  private final List<Column> columns;
  private final List<List<Object>> rows = new ArrayList<>();

  /** An empty table with these columns. */
  public Table(List<Column> columns) {
    this.columns = List.copyOf(columns);
  }

  /** Appends a row; one value per column. */
  public Table add(Object... values) {
    if (values.length != columns.size()) {
      throw new IllegalArgumentException(
          "expected " + columns.size() + " values, got " + values.length);
    }
    rows.add(Arrays.asList(values));
    return this;
  }

  /** The columns. */
  public List<Column> columns() {
    return columns;
  }

  /** The rows, in order. */
  public List<List<Object>> rows() {
    return rows;
  }
}
