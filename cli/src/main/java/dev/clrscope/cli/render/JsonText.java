package dev.clrscope.cli.render;

import java.util.Collection;
import java.util.Map;

/**
 * Writes JSON for the plain values tables hold: strings, numbers, booleans, null, maps and lists.
 * Small on purpose: it keeps a JSON library off the start-up path of every command. Non-finite
 * floating-point values become {@code null}, so the output is always valid JSON.
 */
public final class JsonText {
  private JsonText() {}

  /** A value that writes its own JSON text, for the values on hot paths that need no escaping. */
  public interface Value {
    /** Appends this value's JSON text. */
    void appendJson(StringBuilder sb);
  }

  /** The JSON text of a value. */
  public static String of(Object value) {
    StringBuilder sb = new StringBuilder();
    append(sb, value);
    return sb.toString();
  }

  /** Appends the JSON text of a value. */
  public static void append(StringBuilder sb, Object value) {
    if (value == null) {
      sb.append("null");
    } else if (value instanceof Value v) {
      v.appendJson(sb);
    } else if (value instanceof String s) {
      string(sb, s);
    } else if (value instanceof Double || value instanceof Float) {
      double d = ((Number) value).doubleValue();
      sb.append(Double.isFinite(d) ? value.toString() : "null");
    } else if (value instanceof Number || value instanceof Boolean) {
      sb.append(value);
    } else if (value instanceof Map<?, ?> map) {
      sb.append('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : map.entrySet()) {
        if (!first) {
          sb.append(',');
        }
        first = false;
        string(sb, String.valueOf(e.getKey()));
        sb.append(':');
        append(sb, e.getValue());
      }
      sb.append('}');
    } else if (value instanceof Collection<?> list) {
      sb.append('[');
      boolean first = true;
      for (Object o : list) {
        if (!first) {
          sb.append(',');
        }
        first = false;
        append(sb, o);
      }
      sb.append(']');
    } else {
      string(sb, value.toString());
    }
  }

  private static void string(StringBuilder sb, String s) {
    sb.append('"');
    // Runs that need no escaping (nearly every string) are appended whole.
    int run = 0;
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c >= 0x20 && c != '"' && c != '\\' && c != 0x2028 && c != 0x2029) {
        continue;
      }
      sb.append(s, run, i);
      run = i + 1;
      switch (c) {
        case '"' -> sb.append("\\\"");
        case '\\' -> sb.append("\\\\");
        case '\n' -> sb.append("\\n");
        case '\r' -> sb.append("\\r");
        case '\t' -> sb.append("\\t");
        default -> {
          sb.append("\\u");
          String hex = Integer.toHexString(c);
          sb.append("0000", hex.length(), 4).append(hex);
        }
      }
    }
    sb.append(s, run, s.length());
    sb.append('"');
  }
}
