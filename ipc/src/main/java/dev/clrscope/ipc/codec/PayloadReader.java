package dev.clrscope.ipc.codec;

import dev.clrscope.ipc.MalformedMessageException;
import java.nio.charset.StandardCharsets;
import java.util.UUID;

/**
 * Reads a reply payload, checking every field against the bytes that are left.
 *
 * <p>Nothing the peer sends is trusted: a length that runs past the end raises {@link
 * MalformedMessageException} naming the offset, before anything is allocated for it.
 */
public final class PayloadReader {
  private final byte[] data;
  private final int end;
  private final int base;
  private int pos;

  /** Reads {@code data} from its start; offsets in errors count from {@code base}. */
  public PayloadReader(byte[] data, int base) {
    this.data = data;
    this.end = data.length;
    this.base = base;
  }

  /** Reads {@code data} from its start. */
  public PayloadReader(byte[] data) {
    this(data, 0);
  }

  /** How many bytes are left. */
  public int remaining() {
    return end - pos;
  }

  /** The offset of the next byte, counted as for errors. */
  public long offset() {
    return base + (long) pos;
  }

  private void need(int count, String what) {
    if (count < 0 || end - pos < count) {
      throw new MalformedMessageException(
          offset(), "expected " + what + " (" + count + " bytes), only " + (end - pos) + " left");
    }
  }

  /** An unsigned byte. */
  public int u8(String what) {
    need(1, what);
    return data[pos++] & 0xFF;
  }

  /** A one-byte boolean: any non-zero byte is true. */
  public boolean bool(String what) {
    return u8(what) != 0;
  }

  /** A little-endian unsigned 16-bit value. */
  public int u16(String what) {
    need(2, what);
    int v = (data[pos] & 0xFF) | (data[pos + 1] & 0xFF) << 8;
    pos += 2;
    return v;
  }

  /** A little-endian 32-bit value (as a Java int; callers treat it as unsigned where needed). */
  public int u32(String what) {
    need(4, what);
    int v =
        (data[pos] & 0xFF)
            | (data[pos + 1] & 0xFF) << 8
            | (data[pos + 2] & 0xFF) << 16
            | (data[pos + 3] & 0xFF) << 24;
    pos += 4;
    return v;
  }

  /** A little-endian 64-bit value. */
  public long u64(String what) {
    need(8, what);
    long v = 0;
    for (int i = 7; i >= 0; i--) {
      v = v << 8 | (data[pos + i] & 0xFF);
    }
    pos += 8;
    return v;
  }

  /** A 16-byte GUID in .NET layout. */
  public UUID guid(String what) {
    need(16, what);
    UUID v = GuidLayout.fromBytes(data, pos);
    pos += 16;
    return v;
  }

  /**
   * A length-prefixed UTF-16LE string; {@code null} for a count of 0. The terminating NUL, when
   * present, is dropped.
   */
  public String string(String what) {
    long start = offset();
    long units = Integer.toUnsignedLong(u32(what + " length"));
    if (units == 0) {
      return null;
    }
    if (units * 2 > remaining()) {
      throw new MalformedMessageException(
          start,
          "string "
              + what
              + " claims "
              + units
              + " UTF-16 code units, only "
              + remaining()
              + " bytes left");
    }
    int bytes = (int) units * 2;
    int len = bytes;
    if (data[pos + bytes - 2] == 0 && data[pos + bytes - 1] == 0) {
      len -= 2;
    }
    String s = new String(data, pos, len, StandardCharsets.UTF_16LE);
    pos += bytes;
    return s;
  }

  /** Raw bytes. */
  public byte[] bytes(int count, String what) {
    need(count, what);
    byte[] v = new byte[count];
    System.arraycopy(data, pos, v, 0, count);
    pos += count;
    return v;
  }
}
