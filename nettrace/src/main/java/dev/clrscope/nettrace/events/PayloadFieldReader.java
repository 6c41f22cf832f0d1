package dev.clrscope.nettrace.events;

import dev.clrscope.nettrace.Guid;
import dev.clrscope.nettrace.PayloadCursor;

/**
 * Reads native runtime payload fields in manifest order. Event versions only ever append fields, so
 * a payload that ends exactly before a field means "older version": the field reads as zero, empty
 * string or empty GUID. A payload that ends inside a field is corrupt and fails with the format
 * exception.
 */
final class PayloadFieldReader {
  private final PayloadCursor c;
  private final int pointerSize;

  PayloadFieldReader(PayloadCursor c, int pointerSize) {
    this.c = c;
    this.pointerSize = pointerSize;
  }

  boolean hasMore() {
    return c.remaining() > 0;
  }

  int remaining() {
    return c.remaining();
  }

  int u8(String name) {
    return hasMore() ? c.readU8(name) : 0;
  }

  int u16(String name) {
    return hasMore() ? c.readU16(name) : 0;
  }

  long u32(String name) {
    return hasMore() ? c.readU32(name) : 0;
  }

  int i32(String name) {
    return hasMore() ? c.readI32(name) : 0;
  }

  long u64(String name) {
    return hasMore() ? c.readI64(name) : 0;
  }

  long pointer(String name) {
    return hasMore() ? c.readPointer(pointerSize, name) : 0;
  }

  double f64(String name) {
    return hasMore() ? Double.longBitsToDouble(c.readI64(name)) : 0;
  }

  String string(String name) {
    return hasMore() ? c.readUtf16z(name) : "";
  }

  Guid guid(String name) {
    return hasMore() ? c.readGuid(name) : Guid.EMPTY;
  }

  /** Checks that {@code count} items of at least {@code minItemSize} bytes can still follow. */
  int count(long count, int minItemSize, String name) {
    c.require(count * minItemSize, name + " (" + count + " items)");
    return (int) count;
  }

  int pointerSize() {
    return pointerSize;
  }

  /** {@link PayloadCursor#readColumn}: one field of {@code rows} fixed-size rows, not moving. */
  void column(int rows, int rowSize, int offset, int width, long[] into, String name) {
    c.readColumn(rows, rowSize, offset, width, into, name);
  }

  /** Moves past {@code n} bytes that are there. */
  void skip(int n, String name) {
    c.skip(n, name);
  }
}
