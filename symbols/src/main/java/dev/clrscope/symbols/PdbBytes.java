package dev.clrscope.symbols;

import java.nio.charset.StandardCharsets;

/**
 * Little-endian reads at positions of a byte array window, each checked against the window's end
 * before it reads: the random access that ECMA-335 metadata needs (streams, table rows, heap
 * entries at offsets the file gives). A read past the window is a {@link PdbFormatException} naming
 * what was read, never an index error.
 */
final class PdbBytes {
  private final byte[] data;
  private final int start;
  private final int length;
  private final String what;

  /**
   * @param what what the window holds, for messages ({@code "the #Blob heap"})
   */
  PdbBytes(byte[] data, int start, int length, String what) {
    this.data = data;
    this.start = start;
    this.length = length;
    this.what = what;
  }

  /** The whole array. */
  static PdbBytes of(byte[] data, String what) {
    return new PdbBytes(data, 0, data.length, what);
  }

  int length() {
    return length;
  }

  /** A window of this one, checked to lie inside it. */
  PdbBytes slice(long offset, long size, String name) throws PdbFormatException {
    check(offset, size, name);
    return new PdbBytes(data, start + (int) offset, (int) size, name);
  }

  /** Fails unless {@code size} bytes at {@code offset} lie inside the window. */
  void check(long offset, long size, String field) throws PdbFormatException {
    if (offset < 0 || size < 0 || offset > length || size > length - offset) {
      throw new PdbFormatException(
          field
              + " ("
              + size
              + " bytes at "
              + offset
              + ") lies past the end of "
              + what
              + " ("
              + length
              + " bytes)");
    }
  }

  int u8(long offset, String field) throws PdbFormatException {
    check(offset, 1, field);
    return data[start + (int) offset] & 0xFF;
  }

  int u16(long offset, String field) throws PdbFormatException {
    check(offset, 2, field);
    int p = start + (int) offset;
    return (data[p] & 0xFF) | (data[p + 1] & 0xFF) << 8;
  }

  long u32(long offset, String field) throws PdbFormatException {
    check(offset, 4, field);
    int p = start + (int) offset;
    return ((data[p] & 0xFFL)
        | (data[p + 1] & 0xFFL) << 8
        | (data[p + 2] & 0xFFL) << 16
        | (data[p + 3] & 0xFFL) << 24);
  }

  long u64(long offset, String field) throws PdbFormatException {
    return u32(offset, field) | u32(offset + 4, field) << 32;
  }

  /** An index of 2 or 4 bytes, as table columns and heap references are. */
  int index(long offset, boolean wide, String field) throws PdbFormatException {
    if (!wide) {
      return u16(offset, field);
    }
    long v = u32(offset, field);
    if (v > Integer.MAX_VALUE) {
      throw new PdbFormatException(field + " " + v + " is out of range");
    }
    return (int) v;
  }

  byte[] bytes(long offset, int size, String field) throws PdbFormatException {
    check(offset, size, field);
    byte[] out = new byte[size];
    System.arraycopy(data, start + (int) offset, out, 0, size);
    return out;
  }

  /** The bytes from {@code offset} up to the first NUL, which must come within {@code max}. */
  String utf8z(long offset, int max, String field) throws PdbFormatException {
    check(offset, 0, field);
    int limit = (int) Math.min(length, offset + (long) max);
    for (int i = (int) offset; i < limit; i++) {
      if (data[start + i] == 0) {
        return new String(data, start + (int) offset, i - (int) offset, StandardCharsets.UTF_8);
      }
    }
    throw new PdbFormatException(field + " has no end within " + max + " bytes");
  }

  /** A cursor over {@code size} bytes at {@code offset}, for the compressed integers of blobs. */
  Cursor cursor(long offset, long size, String field) throws PdbFormatException {
    check(offset, size, field);
    return new Cursor((int) offset, (int) (offset + size), field);
  }

  /**
   * The blob at {@code index} of a #Blob heap: its compressed length, then that many bytes, all
   * inside the window.
   */
  Cursor blob(long index, String field) throws PdbFormatException {
    Cursor head = cursor(index, length - index, field);
    int size = head.unsigned();
    return cursor(head.pos, size, field);
  }

  /**
   * Reads ECMA-335's compressed integers (II.23.2) one after another within a blob; each read
   * checks the blob's end.
   */
  final class Cursor {
    private int pos;
    private final int end;
    private final String field;

    private Cursor(int pos, int end, String field) {
      this.pos = pos;
      this.end = end;
      this.field = field;
    }

    boolean hasMore() {
      return pos < end;
    }

    int remaining() {
      return end - pos;
    }

    /** The rest of the blob as UTF-8 text. */
    String utf8() {
      String s = new String(data, start + pos, end - pos, StandardCharsets.UTF_8);
      pos = end;
      return s;
    }

    private int next() throws PdbFormatException {
      if (pos >= end) {
        throw new PdbFormatException(field + " ends in the middle of a value");
      }
      return data[start + pos++] & 0xFF;
    }

    /** An unsigned compressed integer: 1, 2 or 4 bytes, at most 0x1FFFFFFF. */
    int unsigned() throws PdbFormatException {
      return unsignedAndSize()[0];
    }

    private final int[] read = new int[2];

    /** The value and how many bytes it took. */
    private int[] unsignedAndSize() throws PdbFormatException {
      int b = next();
      if ((b & 0x80) == 0) {
        read[0] = b;
        read[1] = 1;
      } else if ((b & 0xC0) == 0x80) {
        read[0] = (b & 0x3F) << 8 | next();
        read[1] = 2;
      } else if ((b & 0xE0) == 0xC0) {
        read[0] = (b & 0x1F) << 24 | next() << 16 | next() << 8 | next();
        read[1] = 4;
      } else {
        throw new PdbFormatException(field + " holds an invalid compressed integer");
      }
      return read;
    }

    /**
     * A signed compressed integer: the unsigned form rotated, its lowest bit the sign, extended by
     * the width it took.
     */
    int signed() throws PdbFormatException {
      int[] r = unsignedAndSize();
      int v = r[0];
      boolean negative = (v & 1) != 0;
      v >>>= 1;
      if (negative) {
        v |= r[1] == 1 ? 0xFFFFFFC0 : r[1] == 2 ? 0xFFFFE000 : 0xF0000000;
      }
      return v;
    }
  }
}
