package dev.clrscope.cli.render;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;
import java.util.Collection;
import java.util.Map;

/**
 * One line of JSON built straight as UTF-8 bytes, for the commands that write millions of lines
 * ({@code trace events}): no String per line, no encoder pass. The text is exactly what {@link
 * JsonText} writes for the same values, encoded as a UTF-8 {@link java.io.PrintStream} encodes it
 * (a lone surrogate becomes {@code ?}).
 */
public final class JsonLineBuffer {
  private static final byte[] HEX =
      "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

  /** Byte b's two hex digits at 2b and 2b+1. */
  private static final byte[] HEX_PAIRS = new byte[512];

  static {
    for (int b = 0; b < 256; b++) {
      HEX_PAIRS[2 * b] = HEX[b >> 4];
      HEX_PAIRS[2 * b + 1] = HEX[b & 0xf];
    }
  }

  private byte[] bytes = new byte[4096];
  private int length;

  /** Empties the line. */
  public JsonLineBuffer clear() {
    length = 0;
    return this;
  }

  /** Writes the line and its end to {@code out}, and empties it. */
  public void writeLineTo(OutputStream out) throws IOException {
    put(10);
    out.write(bytes, 0, length);
    length = 0;
  }

  /**
   * Writes the line and its end to {@code out}, and empties it; a failure is the stream's to keep,
   * as a PrintStream keeps every one.
   */
  public void writeLineTo(java.io.PrintStream out) {
    put(10);
    out.write(bytes, 0, length);
    length = 0;
  }

  /** Appends bytes already written by a buffer (a cached value's text). */
  public JsonLineBuffer raw(byte[] text) {
    ensure(text.length);
    System.arraycopy(text, 0, bytes, length, text.length);
    length += text.length;
    return this;
  }

  /** The line so far as bytes. */
  public byte[] toBytes() {
    return Arrays.copyOf(bytes, length);
  }

  /** The line so far as text (for tests). */
  @Override
  public String toString() {
    return new String(bytes, 0, length, java.nio.charset.StandardCharsets.UTF_8);
  }

  private void ensure(int more) {
    if (length + more > bytes.length) {
      bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more));
    }
  }

  private void put(int b) {
    ensure(1);
    bytes[length++] = (byte) b;
  }

  /** Appends a character that is ASCII and needs no escaping: {@code {}[],:}. */
  public JsonLineBuffer mark(char c) {
    put(c);
    return this;
  }

  /** Appends {@code "key":}; the key must be ASCII and need no escaping. */
  public JsonLineBuffer key(String key) {
    int n = key.length();
    ensure(n + 3);
    bytes[length++] = '"';
    for (int i = 0; i < n; i++) {
      bytes[length++] = (byte) key.charAt(i);
    }
    bytes[length++] = '"';
    bytes[length++] = ':';
    return this;
  }

  /** Appends text that is ASCII and needs no escaping, unquoted (numbers, literals). */
  public JsonLineBuffer ascii(String text) {
    int n = text.length();
    ensure(n);
    for (int i = 0; i < n; i++) {
      bytes[length++] = (byte) text.charAt(i);
    }
    return this;
  }

  /** Appends a whole number. */
  public JsonLineBuffer number(long v) {
    if (v < 0 || v >= 1_000_000_000_000_000_000L) {
      return ascii(Long.toString(v));
    }
    ensure(19);
    int digits = 1;
    for (long x = v; x >= 10; x /= 10) {
      digits++;
    }
    int at = length + digits;
    long x = v;
    do {
      bytes[--at] = (byte) ('0' + (int) (x % 10));
      x /= 10;
    } while (x != 0);
    length += digits;
    return this;
  }

  /** Appends addresses as a JSON array of {@code "0x…"} strings, as {@link HexAddresses} does. */
  public JsonLineBuffer hexAddresses(long[] addresses, int count) {
    ensure(count * 21 + 2);
    bytes[length++] = '[';
    for (int i = 0; i < count; i++) {
      if (i > 0) {
        bytes[length++] = ',';
      }
      long v = addresses[i];
      int digits = Math.max(1, (67 - Long.numberOfLeadingZeros(v)) >> 2);
      bytes[length++] = '"';
      bytes[length++] = '0';
      bytes[length++] = 'x';
      // Two digits a step, from the right.
      int at = length + digits;
      for (int left = digits; left >= 2; left -= 2) {
        int pair = ((int) v & 0xff) << 1;
        bytes[--at] = HEX_PAIRS[pair + 1];
        bytes[--at] = HEX_PAIRS[pair];
        v >>>= 8;
      }
      if ((digits & 1) != 0) {
        bytes[--at] = HEX[(int) v & 0xf];
      }
      length += digits;
      bytes[length++] = '"';
    }
    bytes[length++] = ']';
    return this;
  }

  /** Appends a JSON string: quoted, escaped as {@link JsonText} escapes, UTF-8 encoded. */
  public JsonLineBuffer string(String s) {
    int n = s.length();
    ensure(n * 3 + 2);
    bytes[length++] = '"';
    for (int i = 0; i < n; i++) {
      char c = s.charAt(i);
      if (c < 0x80) {
        if (c >= 0x20 && c != '"' && c != '\\') {
          bytes[length++] = (byte) c;
        } else {
          escape(c);
          ensure((n - i) * 3 + 1);
        }
      } else if (c < 0x800) {
        bytes[length++] = (byte) (0xC0 | c >> 6);
        bytes[length++] = (byte) (0x80 | c & 0x3F);
      } else if (c == 0x2028 || c == 0x2029) {
        escape(c);
        ensure((n - i) * 3 + 1);
      } else if (Character.isHighSurrogate(c)
          && i + 1 < n
          && Character.isLowSurrogate(s.charAt(i + 1))) {
        int cp = Character.toCodePoint(c, s.charAt(++i));
        bytes[length++] = (byte) (0xF0 | cp >> 18);
        bytes[length++] = (byte) (0x80 | cp >> 12 & 0x3F);
        bytes[length++] = (byte) (0x80 | cp >> 6 & 0x3F);
        bytes[length++] = (byte) (0x80 | cp & 0x3F);
      } else if (Character.isSurrogate(c)) {
        bytes[length++] = '?';
      } else {
        bytes[length++] = (byte) (0xE0 | c >> 12);
        bytes[length++] = (byte) (0x80 | c >> 6 & 0x3F);
        bytes[length++] = (byte) (0x80 | c & 0x3F);
      }
    }
    put('"');
    return this;
  }

  private void escape(char c) {
    switch (c) {
      case '"' -> ascii("\\\"");
      case '\\' -> ascii("\\\\");
      case '\n' -> ascii("\\n");
      case '\r' -> ascii("\\r");
      case '\t' -> ascii("\\t");
      default -> {
        String hex = Integer.toHexString(c);
        ascii("\\u").ascii("0000".substring(hex.length())).ascii(hex);
      }
    }
  }

  /**
   * Appends any value as {@link JsonText#append} writes it after a decoded payload's values are
   * made plain: byte arrays as hex text, maps and collections nested, non-finite numbers as null,
   * anything else as its string.
   */
  public JsonLineBuffer value(Object v) {
    if (v == null) {
      return ascii("null");
    } else if (v instanceof String s) {
      return string(s);
    } else if (v instanceof Long
        || v instanceof Integer
        || v instanceof Short
        || v instanceof Byte) {
      return number(((Number) v).longValue());
    } else if (v instanceof Double || v instanceof Float) {
      double d = ((Number) v).doubleValue();
      return ascii(Double.isFinite(d) ? v.toString() : "null");
    } else if (v instanceof Number || v instanceof Boolean) {
      return ascii(v.toString());
    } else if (v instanceof Map<?, ?> map) {
      put('{');
      boolean first = true;
      for (Map.Entry<?, ?> e : map.entrySet()) {
        if (!first) {
          put(',');
        }
        first = false;
        string(String.valueOf(e.getKey()));
        put(':');
        value(e.getValue());
      }
      return mark('}');
    } else if (v instanceof Collection<?> list) {
      put('[');
      boolean first = true;
      for (Object o : list) {
        if (!first) {
          put(',');
        }
        first = false;
        value(o);
      }
      return mark(']');
    } else if (v instanceof byte[] data) {
      ensure(data.length * 2 + 2);
      bytes[length++] = '"';
      for (byte b : data) {
        bytes[length++] = HEX[(b >> 4) & 0xF];
        bytes[length++] = HEX[b & 0xF];
      }
      bytes[length++] = '"';
      return this;
    }
    return string(v.toString());
  }
}
