package dev.clrscope.nettrace;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

/**
 * A bounds-checked little-endian reader over a slice of a byte array, used for block contents and
 * event payloads. Every read checks the bytes left in the slice and reports a failure with the
 * absolute stream offset, so a corrupted count or length can never read past the slice, allocate
 * more than the slice holds, or loop without consuming input.
 */
public final class PayloadCursor {
  private final byte[] data;
  private final int start;
  private final int end;
  private final long streamOffsetOfStart;
  private int pos;

  /**
   * @param data backing array (not copied)
   * @param start first byte of the slice
   * @param length slice length
   * @param streamOffsetOfStart absolute stream offset of {@code data[start]}, for error messages
   */
  public PayloadCursor(byte[] data, int start, int length, long streamOffsetOfStart) {
    if (start < 0 || length < 0 || start + length > data.length) {
      throw new IllegalArgumentException("slice outside array");
    }
    this.data = data;
    this.start = start;
    this.end = start + length;
    this.pos = start;
    this.streamOffsetOfStart = streamOffsetOfStart;
  }

  /** Bytes not yet read. */
  public int remaining() {
    return end - pos;
  }

  /** Absolute stream offset of the next byte. */
  public long streamOffset() {
    return streamOffsetOfStart + (pos - start);
  }

  /** Index of the next byte in the backing array. */
  int arrayPosition() {
    return pos;
  }

  byte[] array() {
    return data;
  }

  /** Fails unless {@code n} more bytes are present. */
  public void require(long n, String what) {
    if (n < 0 || n > end - pos) {
      throw new NetTraceFormatException(
          streamOffset(),
          "expected " + n + " bytes of " + what + ", only " + (end - pos) + " left");
    }
  }

  public void skip(int n, String what) {
    require(n, what);
    pos += n;
  }

  public int readU8(String what) {
    require(1, what);
    return data[pos++] & 0xFF;
  }

  public int readU16(String what) {
    require(2, what);
    int v = (data[pos] & 0xFF) | (data[pos + 1] & 0xFF) << 8;
    pos += 2;
    return v;
  }

  public int readI32(String what) {
    require(4, what);
    int v = i32(data, pos);
    pos += 4;
    return v;
  }

  /** Reads an unsigned 32-bit value. */
  public long readU32(String what) {
    return readI32(what) & 0xFFFFFFFFL;
  }

  public long readI64(String what) {
    require(8, what);
    long v = i64(data, pos);
    pos += 8;
    return v;
  }

  /**
   * Little-endian views of a byte array. The quick compiler, which {@code dump-heap collect} runs
   * with, compiles these to single loads, where assembling bytes by shifts (a call per value, not
   * inlined) took most of a heap walk's reading: 6x faster for the walk's columns.
   */
  private static final VarHandle LE_LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  private static final VarHandle LE_INT =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

  /** The little-endian long at {@code p} (the caller checked the bytes are there). */
  static long i64(byte[] d, int p) {
    return (long) LE_LONG.get(d, p);
  }

  /** The little-endian int at {@code p} (the caller checked the bytes are there). */
  static int i32(byte[] d, int p) {
    return (int) LE_INT.get(d, p);
  }

  /** The little-endian unsigned int at {@code p}. */
  private static long u32(byte[] d, int p) {
    return i32(d, p) & 0xFFFFFFFFL;
  }

  /** Reads a pointer-sized unsigned value (4 or 8 bytes) as a long. */
  public long readPointer(int pointerSize, String what) {
    return pointerSize == 4 ? readU32(what) : readI64(what);
  }

  /** LEB128 unsigned, at most 5 bytes. */
  public int readVarUInt32(String what) {
    if (end - pos >= 5) {
      // Every event header has a few of these: without a check per byte when they surely fit.
      byte[] d = data;
      int p = pos;
      int v = 0;
      for (int shift = 0; shift < 35; shift += 7) {
        int b = d[p++];
        v |= (b & 0x7F) << shift;
        if (b >= 0) {
          pos = p;
          return v;
        }
      }
      throw new NetTraceFormatException(
          streamOffset(), "varuint32 " + what + " longer than 5 bytes");
    }
    long start = streamOffset();
    int v = 0;
    for (int shift = 0; shift < 35; shift += 7) {
      int b = readU8(what);
      v |= (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return v;
      }
    }
    throw new NetTraceFormatException(start, "varuint32 " + what + " longer than 5 bytes");
  }

  /** LEB128 unsigned, at most 10 bytes. */
  public long readVarUInt64(String what) {
    if (end - pos >= 10) {
      byte[] d = data;
      int p = pos;
      long v = 0;
      for (int shift = 0; shift < 70; shift += 7) {
        int b = d[p++];
        v |= (long) (b & 0x7F) << shift;
        if (b >= 0) {
          pos = p;
          return v;
        }
      }
      throw new NetTraceFormatException(
          streamOffset(), "varuint64 " + what + " longer than 10 bytes");
    }
    long start = streamOffset();
    long v = 0;
    for (int shift = 0; shift < 70; shift += 7) {
      int b = readU8(what);
      v |= (long) (b & 0x7F) << shift;
      if ((b & 0x80) == 0) {
        return v;
      }
    }
    throw new NetTraceFormatException(start, "varuint64 " + what + " longer than 10 bytes");
  }

  public Guid readGuid(String what) {
    long a = readI64(what);
    long b = readI64(what);
    return Guid.of(a, b);
  }

  /** Reads a NUL-terminated UTF-16LE string; fails if no terminator is present in the slice. */
  public String readUtf16z(String what) {
    long startOffset = streamOffset();
    int p = pos;
    while (true) {
      if (end - p < 2) {
        throw new NetTraceFormatException(
            startOffset, "unterminated UTF-16 string " + what + " (no NUL before end of data)");
      }
      if (data[p] == 0 && data[p + 1] == 0) {
        break;
      }
      p += 2;
    }
    int chars = (p - pos) / 2;
    String s;
    if (chars == 0) {
      s = "";
    } else {
      char[] c = new char[chars];
      for (int i = 0; i < chars; i++) {
        c[i] = (char) ((data[pos + 2 * i] & 0xFF) | (data[pos + 2 * i + 1] & 0xFF) << 8);
      }
      s = new String(c);
    }
    pos = p + 2;
    return s;
  }

  /** Reads {@code length} bytes of UTF-8. */
  public String readUtf8(int length, String what) {
    require(length, what);
    String s = new String(data, pos, length, StandardCharsets.UTF_8);
    pos += length;
    return s;
  }

  /** V6 string: varuint32 byte length + UTF-8. */
  public String readVarUtf8(String what) {
    int len = readVarUInt32(what);
    return readUtf8(len, what);
  }

  /** Copies the next {@code n} bytes. */
  public byte[] readBytes(int n, String what) {
    require(n, what);
    byte[] b = new byte[n];
    System.arraycopy(data, pos, b, 0, n);
    pos += n;
    return b;
  }

  /**
   * A cursor over {@code length} bytes at {@code from} bytes after the slice start, wherever this
   * cursor stands; fails unless they lie inside the slice.
   */
  PayloadCursor window(long from, int length, String what) {
    if (from < 0 || length < 0 || from + length > end - start) {
      throw new NetTraceFormatException(
          streamOffset(),
          what
              + " at "
              + from
              + ".."
              + (from + length)
              + " outside the "
              + (end - start)
              + " bytes");
    }
    return new PayloadCursor(data, start + (int) from, length, streamOffsetOfStart + from);
  }

  /** Lowercase hex of the whole slice, for showing bytes that could not be decoded. */
  String hex() {
    StringBuilder sb = new StringBuilder((end - start) * 2);
    for (int i = start; i < end; i++) {
      sb.append(Character.forDigit((data[i] >>> 4) & 0xF, 16))
          .append(Character.forDigit(data[i] & 0xF, 16));
    }
    return sb.toString();
  }

  /** A cursor over the next {@code n} bytes; this cursor skips past them. */
  public PayloadCursor slice(int n, String what) {
    require(n, what);
    PayloadCursor c = new PayloadCursor(data, pos, n, streamOffset());
    pos += n;
    return c;
  }

  /**
   * Reads one field of each of {@code rows} rows of {@code rowSize} bytes that start here, without
   * moving: the field at {@code offset} in each row, {@code width} bytes (4, unsigned, or 8) little
   * endian, into {@code into[0..rows)}. For the runtime's bulk events, whose thousands of
   * fixed-size rows are read column by column in one loop each rather than a call per field.
   *
   * @throws NetTraceFormatException unless {@code rows × rowSize} bytes are left
   */
  public void readColumn(int rows, int rowSize, int offset, int width, long[] into, String what) {
    if (rows < 0 || offset < 0 || (width != 4 && width != 8) || offset + width > rowSize) {
      throw new IllegalArgumentException(
          "column at " + offset + " of width " + width + " in rows of " + rowSize + " bytes");
    }
    require((long) rows * rowSize, what + " (" + rows + " rows)");
    byte[] d = data;
    int p = pos + offset;
    if (width == 8) {
      for (int r = 0; r < rows; r++, p += rowSize) {
        into[r] = i64(d, p);
      }
    } else {
      for (int r = 0; r < rows; r++, p += rowSize) {
        into[r] = u32(d, p);
      }
    }
  }
}
