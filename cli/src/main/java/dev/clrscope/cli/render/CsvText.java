package dev.clrscope.cli.render;

import java.util.List;

/** CSV as RFC 4180 writes it: the one place fields are quoted. */
public final class CsvText {
  private CsvText() {}

  /**
   * One field: {@code null} is empty; a control character from the target is shown, not obeyed
   * ({@link VisibleText#csv}); a field holding a comma, a quote or a line break is quoted, its
   * quotes doubled.
   */
  public static String field(Object value) {
    String s = value == null ? "" : VisibleText.csv(value.toString());
    if (s.indexOf(',') >= 0
        || s.indexOf('"') >= 0
        || s.indexOf('\n') >= 0
        || s.indexOf('\r') >= 0) {
      return '"' + s.replace("\"", "\"\"") + '"';
    }
    return s;
  }

  /**
   * One record, without its line end. RFC 4180 ends records with CRLF; callers end them with LF,
   * which every CSV reader accepts and which reads better in a terminal.
   */
  public static String row(List<?> values) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < values.size(); i++) {
      if (i > 0) {
        sb.append(',');
      }
      sb.append(field(values.get(i)));
    }
    return sb.toString();
  }
}
