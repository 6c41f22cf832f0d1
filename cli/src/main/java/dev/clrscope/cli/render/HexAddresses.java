package dev.clrscope.cli.render;

import java.util.AbstractList;
import java.util.RandomAccess;

/**
 * Instruction addresses, shown as {@code 0x7f3ad2cd204d}: a list of words for tables and CSV, and a
 * JSON array written straight from the numbers, since a stack of dozens of frames on every event of
 * a trace is most of what {@code trace events} writes.
 */
public final class HexAddresses extends AbstractList<String>
    implements RandomAccess, JsonText.Value {
  private final long[] addresses;

  /** The addresses, innermost frame first as stacks are; not copied. */
  public HexAddresses(long[] addresses) {
    this.addresses = addresses;
  }

  @Override
  public String get(int index) {
    return "0x" + Long.toHexString(addresses[index]);
  }

  @Override
  public int size() {
    return addresses.length;
  }

  @Override
  public void appendJson(StringBuilder sb) {
    // Each address is rendered right to left into a small buffer and appended at once.
    char[] text = new char[19];
    sb.append('[');
    for (int i = 0; i < addresses.length; i++) {
      if (i > 0) {
        sb.append(',');
      }
      long v = addresses[i];
      int at = text.length;
      text[--at] = '"';
      do {
        text[--at] = DIGITS[(int) v & 0xf];
        v >>>= 4;
      } while (v != 0);
      text[--at] = 'x';
      text[--at] = '0';
      sb.append('"').append(text, at, text.length - at);
    }
    sb.append(']');
  }

  private static final char[] DIGITS = "0123456789abcdef".toCharArray();
}
