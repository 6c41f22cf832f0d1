package dev.clrscope.ipc.testing;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;

/** Test helpers for writing expected bytes by hand, independently of the code under test. */
public final class Hex {
  private Hex() {}

  /** Bytes from whitespace-separated hex pairs, such as {@code "44 4f 54"}. */
  public static byte[] bytes(String hex) {
    String compact = hex.replaceAll("\\s+", "");
    return HexFormat.of().parseHex(compact);
  }

  /** Lower-case hex pairs separated by single spaces, for readable assertion failures. */
  public static String of(byte[] bytes) {
    return HexFormat.ofDelimiter(" ").formatHex(bytes);
  }

  /** Concatenates byte arrays. */
  public static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] p : parts) {
      out.writeBytes(p);
    }
    return out.toByteArray();
  }

  /** A little-endian u16, written byte by byte. */
  public static byte[] u16(int v) {
    return new byte[] {(byte) v, (byte) (v >>> 8)};
  }

  /** A little-endian u32, written byte by byte. */
  public static byte[] u32(long v) {
    return new byte[] {(byte) v, (byte) (v >>> 8), (byte) (v >>> 16), (byte) (v >>> 24)};
  }

  /** A little-endian u64, written byte by byte. */
  public static byte[] u64(long v) {
    byte[] b = new byte[8];
    for (int i = 0; i < 8; i++) {
      b[i] = (byte) (v >>> (8 * i));
    }
    return b;
  }

  /** A protocol string: u32 count of UTF-16 units including the NUL, the units, the NUL. */
  public static byte[] string(String s) {
    if (s == null) {
      return u32(0);
    }
    byte[] data = s.getBytes(StandardCharsets.UTF_16LE);
    return concat(u32(s.length() + 1L), data, new byte[2]);
  }

  /** The 20-byte header of a message of {@code size} bytes, written by hand. */
  public static byte[] header(int size, int set, int id) {
    return concat(
        "DOTNET_IPC_V1\0".getBytes(StandardCharsets.US_ASCII),
        u16(size),
        new byte[] {(byte) set, (byte) id},
        u16(0));
  }
}
