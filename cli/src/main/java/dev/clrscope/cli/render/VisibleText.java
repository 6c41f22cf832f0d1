package dev.clrscope.cli.render;

/**
 * Text from the target shown, never obeyed: in a table and in CSV, the characters a terminal acts
 * on rather than prints (C0 controls, DEL, C1 controls) and those that reorder what follows
 * (bidirectional embeddings, overrides, isolates and marks; line and paragraph separators) are
 * written as {@code \\u001b}. A string on the target's heap, an exception's message or a thread's
 * name can then neither retitle or clear the user's terminal nor make a line read other than it is.
 * JSON escapes them itself. The one place this is done: every table cell, line and CSV field goes
 * through here.
 */
public final class VisibleText {
  private VisibleText() {}

  /**
   * {@code s} for a table: a line break or tab becomes a space (a row stays one line), every other
   * such character is escaped.
   */
  public static String cell(String s) {
    return escape(s, false);
  }

  /**
   * {@code s} for a CSV field: line breaks and tabs stay (the field is quoted), the rest escaped.
   */
  public static String csv(String s) {
    return escape(s, true);
  }

  private static String escape(String s, boolean keepWhitespace) {
    int i = 0;
    int n = s.length();
    while (i < n && !special(s.charAt(i))) {
      i++;
    }
    if (i == n) {
      return s;
    }
    StringBuilder sb = new StringBuilder(n + 16).append(s, 0, i);
    for (; i < n; i++) {
      char c = s.charAt(i);
      if (!special(c)) {
        sb.append(c);
      } else if (c == '\n' || c == '\r' || c == '\t') {
        sb.append(keepWhitespace ? c : ' ');
      } else {
        String hex = Integer.toHexString(c);
        sb.append("\\u").append("0000", hex.length(), 4).append(hex);
      }
    }
    return sb.toString();
  }

  /** Whether a terminal would act on {@code c}, or it would reorder the text around it. */
  static boolean special(char c) {
    if (c < 0x20 || c == 0x7f) {
      return true;
    }
    if (c < 0x80) {
      return false;
    }
    return c <= 0x9f
        || c == 0x061c
        || c == 0x200e
        || c == 0x200f
        || (c >= 0x2028 && c <= 0x202e)
        || (c >= 0x2066 && c <= 0x2069);
  }
}
