package dev.clrscope.cli.render;

import java.util.function.Function;

/**
 * One field of a streamed record, declared once: its key (JSON member, CSV header), its table
 * heading and width, its unit, how to read it from the record, and which formats show it.
 *
 * @param key the JSON member and CSV header, camelCase
 * @param label the table heading
 * @param width the table column's width (at least the label's)
 * @param unit what the value is, and so how it prints
 * @param value reads the value from a record; {@code null} for none
 * @param text the table cell, where the unit's short form is not the right one; or {@code null}
 * @param in the formats that show this field
 * @param omitNull JSON leaves the member out when the value is {@code null}
 * @param cutStart a table cuts a cell too wide for its column at its start ({@code ...Program.Work
 *     (Program.cs:42)}), keeping what ends it: a frame's method and line
 * @param <R> the record type
 */
public record Field<R>(
    String key,
    String label,
    int width,
    Unit unit,
    Function<? super R, ?> value,
    Function<? super R, String> text,
    Shown in,
    boolean omitNull,
    boolean cutStart) {

  /** Which formats show a field. */
  public enum Shown {
    /** Table, CSV and JSON. */
    EVERYWHERE(true, true, true),
    /** CSV and JSON: exact values a table has no room for. */
    DATA(false, true, true),
    /** Table and CSV: flat columns that JSON nests under another member. */
    FLAT(true, true, false),
    /** The table only. */
    TABLE(true, false, false),
    /** CSV only. */
    CSV(false, true, false),
    /** JSON only: nested objects and lists. */
    JSON(false, false, true),
    /** No format: a table column left out to fit the terminal. */
    NONE(false, false, false);

    final boolean table;
    final boolean csv;
    final boolean json;

    Shown(boolean table, boolean csv, boolean json) {
      this.table = table;
      this.csv = csv;
      this.json = json;
    }

    /** Whether JSON shows the field. */
    public boolean json() {
      return json;
    }

    /** Whether the table shows the field. */
    public boolean table() {
      return table;
    }

    /** The same formats less the table. */
    Shown withoutTable() {
      return switch (this) {
        case EVERYWHERE -> DATA;
        case FLAT -> CSV;
        case TABLE -> NONE;
        default -> this;
      };
    }
  }

  /** A field every format shows. */
  public static <R> Field<R> of(
      String key, String label, int width, Unit unit, Function<? super R, ?> value) {
    return new Field<>(key, label, width, unit, value, null, Shown.EVERYWHERE, false, false);
  }

  /** This field, shown only in {@code where}. */
  public Field<R> only(Shown where) {
    return new Field<>(key, label, width, unit, value, text, where, omitNull, cutStart);
  }

  /** This field, with its own table cell. */
  public Field<R> cell(Function<? super R, String> cellText) {
    return new Field<>(key, label, width, unit, value, cellText, in, omitNull, cutStart);
  }

  /** A field that only data formats show, by key alone (no table column). */
  public static <R> Field<R> data(String key, Unit unit, Function<? super R, ?> value) {
    return new Field<>(key, key, 0, unit, value, null, Shown.DATA, false, false);
  }

  /** This field, left out of a JSON object when it has no value. */
  public Field<R> optional() {
    return new Field<>(key, label, width, unit, value, text, in, true, cutStart);
  }

  /** This field, its table column {@code columns} wide. */
  public Field<R> withWidth(int columns) {
    return new Field<>(key, label, columns, unit, value, text, in, omitNull, cutStart);
  }

  /** This field, cut at its start in a table: see {@link #cutStart()}. */
  public Field<R> cutAtStart() {
    return new Field<>(key, label, width, unit, value, text, in, omitNull, true);
  }

  /** This field with another table heading. */
  public Field<R> labelled(String heading) {
    return new Field<>(key, heading, width, unit, value, text, in, omitNull, cutStart);
  }

  /**
   * This field, read from the part of an {@code S} that is an {@code R}: a record that holds
   * another reuses its fields rather than declaring them again.
   */
  public <S> Field<S> from(Function<? super S, ? extends R> part) {
    Function<? super R, ?> v = value;
    Function<? super R, String> t = text;
    return new Field<>(
        key,
        label,
        width,
        unit,
        s -> v.apply(part.apply(s)),
        t == null ? null : s -> t.apply(part.apply(s)),
        in,
        omitNull,
        cutStart);
  }

  /**
   * The table cell of this field for a record, on one line and shown as it is ({@link
   * VisibleText#cell}): a line break or tab in the value (an exception's message) would break the
   * table's rows, so it becomes a space, and a control character from the target is escaped.
   */
  public String tableText(R record) {
    String cell = text != null ? text.apply(record) : unit.text(value.apply(record));
    return VisibleText.cell(cell);
  }

  /** The table column's width in a stream of rows: the declared width, at least the heading's. */
  public int tableWidth() {
    return Math.max(Math.max(width, unit.minWidth()), label.length());
  }

  /**
   * A JSON-only member holding a list of smaller records, each drawn by its own schema: the rows a
   * table shows under this one (a stack's frames, a category's slowest items).
   */
  public static <R, S> Field<R> nested(
      String key, RecordSchema<S> schema, Function<? super R, ? extends java.util.List<S>> list) {
    return new Field<R>(
        key,
        key,
        0,
        Unit.TEXT,
        r -> {
          java.util.List<S> items = list.apply(r);
          return items == null ? null : schema.jsonObjects(items);
        },
        null,
        Shown.JSON,
        false,
        false);
  }
}
