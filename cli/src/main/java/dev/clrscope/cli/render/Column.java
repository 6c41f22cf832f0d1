package dev.clrscope.cli.render;

/**
 * A column of a table.
 *
 * @param key the field name in JSON and the CSV header, camelCase
 * @param label the heading in table output and the label in a record view
 * @param numeric whether values align right
 */
public record Column(String key, String label, boolean numeric) {
  /** A text column. */
  public static Column text(String key, String label) {
    return new Column(key, label, false);
  }

  /** A numeric column. */
  public static Column number(String key, String label) {
    return new Column(key, label, true);
  }
}
