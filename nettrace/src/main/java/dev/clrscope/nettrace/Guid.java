package dev.clrscope.nettrace;

import java.util.Locale;

/**
 * A .NET GUID kept as its 16 raw bytes (two little-endian longs), so that it is written back
 * byte-for-byte. {@link #toString()} renders the .NET form, where the first three groups are
 * little-endian integers:
 *
 * <pre>
 *  bytes: d1 d1 d1 d1 | d2 d2 | d3 d3 | d4 d4 d4 d4 d4 d4 d4 d4
 *         Data1 (u32 LE) Data2  Data3  Data4 (8 bytes, in order)
 * </pre>
 *
 * @param low first 8 bytes as a little-endian long
 * @param high last 8 bytes as a little-endian long
 */
public record Guid(long low, long high) {
  /** The all-zero GUID. */
  public static final Guid EMPTY = new Guid(0, 0);

  static Guid of(long low, long high) {
    return low == 0 && high == 0 ? EMPTY : new Guid(low, high);
  }

  /** True for the all-zero GUID. */
  public boolean isEmpty() {
    return low == 0 && high == 0;
  }

  /** Parses the canonical {@code xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx} form. */
  public static Guid parse(String s) {
    String h = s.replace("-", "");
    if (h.length() != 32) {
      throw new IllegalArgumentException("not a GUID: " + s);
    }
    long d1 = Long.parseLong(h.substring(0, 8), 16);
    long d2 = Long.parseLong(h.substring(8, 12), 16);
    long d3 = Long.parseLong(h.substring(12, 16), 16);
    long low = d1 | d2 << 32 | d3 << 48;
    long high = 0;
    for (int i = 0; i < 8; i++) {
      high |= Long.parseLong(h.substring(16 + 2 * i, 18 + 2 * i), 16) << (8 * i);
    }
    return of(low, high);
  }

  @Override
  public String toString() {
    StringBuilder sb = new StringBuilder(36);
    sb.append(
        String.format(
            Locale.ROOT, "%08x-%04x-%04x-", low & 0xFFFFFFFFL, (low >>> 32) & 0xFFFF, low >>> 48));
    for (int i = 0; i < 8; i++) {
      if (i == 2) {
        sb.append('-');
      }
      sb.append(String.format(Locale.ROOT, "%02x", (high >>> (8 * i)) & 0xFF));
    }
    return sb.toString();
  }
}
