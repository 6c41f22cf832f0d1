package dev.clrscope.nettrace;

import java.util.Arrays;

/** Little-endian byte sink for the writer: fixed-width integers, LEB128, GUIDs, UTF-16z strings. */
final class GrowableBuffer {
  private byte[] data = new byte[1024];
  private int size;

  int size() {
    return size;
  }

  byte[] array() {
    return data;
  }

  void reset() {
    size = 0;
  }

  private void ensure(int more) {
    if (size + more > data.length) {
      data = Arrays.copyOf(data, Math.max(data.length * 2, size + more));
    }
  }

  void u8(int v) {
    ensure(1);
    data[size++] = (byte) v;
  }

  void u16(int v) {
    ensure(2);
    data[size++] = (byte) v;
    data[size++] = (byte) (v >>> 8);
  }

  void i32(int v) {
    ensure(4);
    for (int i = 0; i < 4; i++) {
      data[size++] = (byte) (v >>> (8 * i));
    }
  }

  void i64(long v) {
    ensure(8);
    for (int i = 0; i < 8; i++) {
      data[size++] = (byte) (v >>> (8 * i));
    }
  }

  void varUInt(long v) {
    ensure(10);
    while ((v & ~0x7FL) != 0) {
      data[size++] = (byte) ((v & 0x7F) | 0x80);
      v >>>= 7;
    }
    data[size++] = (byte) v;
  }

  void guid(Guid g) {
    i64(g.low());
    i64(g.high());
  }

  void utf16z(String s) {
    ensure(2 * s.length() + 2);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      data[size++] = (byte) c;
      data[size++] = (byte) (c >>> 8);
    }
    data[size++] = 0;
    data[size++] = 0;
  }

  void bytes(byte[] b, int off, int len) {
    ensure(len);
    System.arraycopy(b, off, data, size, len);
    size += len;
  }

  /** Overwrites 4 bytes at {@code at}. */
  void patchI32(int at, int v) {
    for (int i = 0; i < 4; i++) {
      data[at + i] = (byte) (v >>> (8 * i));
    }
  }
}
