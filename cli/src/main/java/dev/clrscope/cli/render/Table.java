package dev.clrscope.cli.render;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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

  /** The rows as JSON objects: each column's key to its value, in column order. */
  public List<Map<String, Object>> objects() {
    List<Map<String, Object>> objects = new ArrayList<>();
    for (List<Object> row : rows) {
      Map<String, Object> o = new LinkedHashMap<>();
      for (int i = 0; i < columns.size(); i++) {
        o.put(columns.get(i).key(), row.get(i));
      }
      objects.add(o);
    }
    return objects;
  }

  /** The rows, in order. */
  public List<List<Object>> rows() {
    return rows;
  }
}
