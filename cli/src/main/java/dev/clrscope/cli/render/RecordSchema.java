package dev.clrscope.cli.render;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The fields of a record type, in order, declared once for every format: the columns of a table, a
 * stream of rows or a tree, and the members of a record shown on its own.
 *
 * @param kind the JSON {@code "kind"} member that tells records apart in a mixed JSON Lines stream,
 *     or {@code null} for none
 * @param fields the fields, in output order
 * @param priority the keys of the table columns a narrow terminal keeps first, most useful first;
 *     the columns not named follow in declared order (empty: declared order)
 * @param key the table column that names what a row is about (a method, a type, a URL): a narrow
 *     terminal cuts every other column first, and leaves other columns out before it cuts this one;
 *     {@code null} for none
 * @param <R> the record type
 */
public record RecordSchema<R>(
    String kind, List<Field<R>> fields, List<String> priority, String key) {
  /** A schema. */
  public RecordSchema {
    fields = List.copyOf(fields);
    priority = List.copyOf(priority);
  }

  /** A schema whose table columns rank in declared order. */
  public RecordSchema(String kind, List<Field<R>> fields) {
    this(kind, fields, List.of(), null);
  }

  /** A schema whose table columns rank as {@code priority} says, without a key column. */
  public RecordSchema(String kind, List<Field<R>> fields, List<String> priority) {
    this(kind, fields, priority, null);
  }

  /** This schema with its table columns ranked: see {@link #priority()}. */
  public RecordSchema<R> withPriority(List<String> keys) {
    return new RecordSchema<>(kind, fields, keys, key);
  }

  /**
   * This schema whose table column {@code column} names what a row is about: see {@link #key()}. It
   * ranks first.
   */
  public RecordSchema<R> withKey(String column) {
    List<String> ranked = new ArrayList<>();
    ranked.add(column);
    for (String p : priority) {
      if (!p.equals(column)) {
        ranked.add(p);
      }
    }
    return new RecordSchema<>(kind, fields, ranked, column);
  }

  /** The fields the table shows, most useful first: {@link #priority()}, then declared order. */
  public List<Field<R>> rankedTableFields() {
    List<Field<R>> ranked = new ArrayList<>();
    for (String key : priority) {
      for (Field<R> f : fields) {
        if (f.in().table && f.key().equals(key) && indexOf(ranked, f) < 0) {
          ranked.add(f);
        }
      }
    }
    for (Field<R> f : fields) {
      if (f.in().table && indexOf(ranked, f) < 0) {
        ranked.add(f);
      }
    }
    return ranked;
  }

  /**
   * Where {@code field} itself is in {@code list}, or -1: by identity, for a record's own equals
   * would link its invokedynamic bootstrap, a cost every listing would pay at start-up.
   */
  static <R> int indexOf(List<Field<R>> list, Field<R> field) {
    for (int i = 0; i < list.size(); i++) {
      if (list.get(i) == field) {
        return i;
      }
    }
    return -1;
  }

  /** The fields the table shows, in declared order. */
  public List<Field<R>> tableFields() {
    List<Field<R>> shown = new ArrayList<>();
    for (Field<R> f : fields) {
      if (f.in().table) {
        shown.add(f);
      }
    }
    return shown;
  }

  /**
   * This schema, read from the part of an {@code S} that is an {@code R} ({@link Field#from}): the
   * same fields, kind and priority.
   */
  public <S> RecordSchema<S> from(java.util.function.Function<? super S, ? extends R> part) {
    List<Field<S>> mapped = new ArrayList<>(fields.size());
    for (Field<R> f : fields) {
      mapped.add(f.from(part));
    }
    return new RecordSchema<>(kind, mapped, priority, key);
  }

  /** Whether JSON shows any field. */
  public boolean hasJson() {
    for (Field<R> f : fields) {
      if (f.in().json) {
        return true;
      }
    }
    return kind != null;
  }

  /** The JSON objects of records, in order. */
  public List<Map<String, Object>> jsonObjects(List<? extends R> records) {
    List<Map<String, Object>> objects = new ArrayList<>(records.size());
    for (R r : records) {
      objects.add(jsonObject(r));
    }
    return objects;
  }

  /** The keys of the fields the table shows, in order. */
  public List<String> tableKeys() {
    List<String> keys = new ArrayList<>();
    for (Field<R> f : fields) {
      if (f.in().table) {
        keys.add(f.key());
      }
    }
    return keys;
  }

  /**
   * This schema with only the named table columns, in their declared order; every other format is
   * unchanged. A name is a field's key or its table heading, in any case.
   *
   * @throws IllegalArgumentException naming what the table can show, if a name is not a column
   */
  public RecordSchema<R> withTableColumns(List<String> names) {
    Set<String> keys = new HashSet<>();
    for (String name : names) {
      Field<R> column = null;
      for (Field<R> f : fields) {
        if (f.in().table
            && (f.key().equalsIgnoreCase(name.strip())
                || f.label().equalsIgnoreCase(name.strip()))) {
          column = f;
        }
      }
      if (column == null) {
        List<String> labels = new ArrayList<>();
        for (Field<R> f : fields) {
          if (f.in().table) {
            labels.add(f.label());
          }
        }
        throw new IllegalArgumentException(
            "no column '" + name + "': the table has " + String.join(", ", labels));
      }
      keys.add(column.key());
    }
    return keeping(keys);
  }

  /**
   * This schema with the table columns that fit in {@code width} characters, chosen most useful
   * first ({@link #rankedTableFields()}): the key column always, a free-text key given at least
   * {@link #KEY_WIDTH} (or half the width); then each other column that still fits at its width, a
   * column that does not fit left out while narrower ones after it may still fit. They are shown in
   * their declared order; a free-text column that is not the last gets a width of its heading's.
   */
  public RecordSchema<R> fittingTable(int width) {
    List<Field<R>> ranked = rankedTableFields();
    Set<String> keys = new HashSet<>();
    int used = 0;
    Field<R> keyField = null;
    for (Field<R> f : ranked) {
      if (f.key().equals(key)) {
        keyField = f;
        used = f.width() > 0 ? f.tableWidth() : keyWidth(f, width);
        keys.add(f.key());
      }
    }
    for (Field<R> f : ranked) {
      if (f == keyField) {
        continue;
      }
      int needed = f.tableWidth() + (keys.isEmpty() ? 0 : 2);
      if (used + needed <= width) {
        used += needed;
        keys.add(f.key());
      }
    }
    RecordSchema<R> kept = keeping(keys);
    if (keyField == null || keyField.width() > 0 || isLastTableField(kept, keyField.key())) {
      return kept;
    }
    // A free-text key before other columns: its cells are cut to the width it was given.
    int keyWidth = keyWidth(keyField, width);
    List<Field<R>> widened = new ArrayList<>();
    for (Field<R> f : kept.fields) {
      widened.add(f.key().equals(key) ? f.withWidth(keyWidth) : f);
    }
    return new RecordSchema<>(kind, widened, priority, key);
  }

  /** The width a free-text key column is kept at, at least, in a stream of rows. */
  public static final int KEY_WIDTH = 40;

  private static int keyWidth(Field<?> f, int width) {
    return Math.max(f.label().length(), Math.min(KEY_WIDTH, width / 2));
  }

  private static <R> boolean isLastTableField(RecordSchema<R> schema, String key) {
    List<Field<R>> shown = schema.tableFields();
    return !shown.isEmpty() && shown.get(shown.size() - 1).key().equals(key);
  }

  private RecordSchema<R> keeping(Set<String> tableKeys) {
    List<Field<R>> kept = new ArrayList<>();
    for (Field<R> f : fields) {
      kept.add(f.in().table && !tableKeys.contains(f.key()) ? f.only(f.in().withoutTable()) : f);
    }
    return new RecordSchema<>(kind, kept, priority, key);
  }

  /**
   * Appends the JSON object of a record, as {@link #jsonObject} holds it, without building the map:
   * the path of every streamed record. Returns {@code sb}.
   */
  public StringBuilder appendJson(StringBuilder sb, R record) {
    sb.append('{');
    boolean first = true;
    if (kind != null) {
      sb.append("\"kind\":");
      JsonText.append(sb, kind);
      first = false;
    }
    for (Field<R> f : fields) {
      if (f.in().json) {
        Object v = f.value().apply(record);
        if (v != null || !f.omitNull()) {
          if (!first) {
            sb.append(',');
          }
          first = false;
          JsonText.append(sb, f.key());
          sb.append(':');
          JsonText.append(sb, f.unit().json(v));
        }
      }
    }
    return sb.append('}');
  }

  /** The JSON object of a record. */
  public Map<String, Object> jsonObject(R record) {
    Map<String, Object> o = new LinkedHashMap<>();
    if (kind != null) {
      o.put("kind", kind);
    }
    for (Field<R> f : fields) {
      if (f.in().json) {
        Object v = f.value().apply(record);
        if (v != null || !f.omitNull()) {
          o.put(f.key(), f.unit().json(v));
        }
      }
    }
    return o;
  }

  /** The CSV header line: the keys. */
  public String csvHeader() {
    List<String> keys = new ArrayList<>();
    for (Field<R> f : fields) {
      if (f.in().csv) {
        keys.add(f.key());
      }
    }
    return CsvText.row(keys);
  }

  /** The CSV line of a record. */
  public String csvRow(R record) {
    List<Object> values = new ArrayList<>();
    for (Field<R> f : fields) {
      if (f.in().csv) {
        values.add(f.unit().csv(f.unit().json(f.value().apply(record))));
      }
    }
    return CsvText.row(values);
  }

  /**
   * The lines of one record shown on its own, a field a line: its heading, padded to the longest,
   * then its table cell. An optional field without a value has no line.
   */
  public List<String> recordLines(R record) {
    int width = 0;
    for (Field<R> f : fields) {
      if (f.in().table) {
        width = Math.max(width, f.label().length());
      }
    }
    List<String> lines = new ArrayList<>();
    for (Field<R> f : fields) {
      if (f.in().table && !(f.omitNull() && f.value().apply(record) == null)) {
        String label = f.label();
        lines.add(
            label.isEmpty()
                ? f.tableText(record)
                : (label + " ".repeat(width - label.length()) + "  " + f.tableText(record))
                    .stripTrailing());
      }
    }
    return lines;
  }

  /** The table's heading line. */
  public String tableHeader() {
    List<String> labels = new ArrayList<>();
    for (Field<R> f : fields) {
      if (f.in().table) {
        labels.add(f.label());
      }
    }
    return tableLine(labels);
  }

  /** The table line of a record: fixed widths, so lines align as they arrive. */
  public String tableRow(R record) {
    return tableRow(record, false);
  }

  /**
   * The table line of a record; with {@code cut}, a text cell wider than its column (but the last)
   * is cut with {@code ...}, so that the columns after it stay aligned on a terminal.
   */
  public String tableRow(R record, boolean cut) {
    List<String> cells = new ArrayList<>();
    List<Field<R>> shown = tableFields();
    for (int i = 0; i < shown.size(); i++) {
      Field<R> f = shown.get(i);
      String cell = f.tableText(record);
      cells.add(
          cut && i < shown.size() - 1 && !f.unit().rightAligned()
              ? ColumnLayout.cutTo(cell, f.tableWidth(), f.cutStart())
              : cell);
    }
    return tableLine(cells);
  }

  private String tableLine(List<String> cells) {
    StringBuilder sb = new StringBuilder();
    int i = 0;
    for (Field<R> f : fields) {
      if (!f.in().table) {
        continue;
      }
      String v = cells.get(i);
      boolean last = i == cells.size() - 1;
      if (i > 0) {
        sb.append("  ");
      }
      int pad = Math.max(0, f.tableWidth() - v.length());
      if (f.unit().rightAligned()) {
        sb.append(" ".repeat(pad)).append(v);
      } else {
        sb.append(v);
        if (!last) {
          sb.append(" ".repeat(pad));
        }
      }
      i++;
    }
    return sb.toString().stripTrailing();
  }
}
