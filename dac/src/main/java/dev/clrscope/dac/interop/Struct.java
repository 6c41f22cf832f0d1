package dev.clrscope.dac.interop;

import java.nio.ByteBuffer;

/**
 * A structure the DAC filled, read by field name through its {@link StructLayout}: {@code
 * d.int32(DacpMethodTableData.BaseSize)}, never a counted offset. Each read checks that the field's
 * declared type has the size read.
 *
 * @param <F> the enum of its fields
 */
public final class Struct<F extends Enum<F> & StructField> {
  private final StructLayout<F> layout;
  private final ByteBuffer bytes;
  private final int base;

  Struct(StructLayout<F> layout, ByteBuffer bytes, int base) {
    this.layout = layout;
    this.bytes = bytes;
    this.base = base;
  }

  private int at(F field, CType as, int index) {
    CType t = field.type();
    if (!t.holds(as) || index < 0 || (index + 1) * as.size() > t.size()) {
      throw new IllegalArgumentException(
          layout.name() + "." + field.name() + " is " + t.name() + ", not " + as.name());
    }
    return base + layout.offset(field) + index * as.size();
  }

  /** A {@code CLRDATA_ADDRESS} (or a 64-bit number). */
  public long address(F field) {
    return bytes.getLong(at(field, CType.UINT64, 0));
  }

  /** Element {@code index} of an array of addresses. */
  public long address(F field, int index) {
    return bytes.getLong(at(field, CType.UINT64, index));
  }

  /** A 64-bit number. */
  public long uint64(F field) {
    return bytes.getLong(at(field, CType.UINT64, 0));
  }

  /** A 32-bit number (signed as Java reads it). */
  public int int32(F field) {
    return bytes.getInt(at(field, CType.INT32, 0));
  }

  /** A {@code BOOL}. */
  public boolean bool(F field) {
    return bytes.getInt(at(field, CType.BOOL, 0)) != 0;
  }

  /** A {@code WORD}, unsigned. */
  public int uint16(F field) {
    return Short.toUnsignedInt(bytes.getShort(at(field, CType.UINT16, 0)));
  }

  /** Element {@code index} of an array of structures {@code inner} (or the one nested there). */
  public <G extends Enum<G> & StructField> Struct<G> struct(
      F field, int index, StructLayout<G> inner) {
    return inner.view(bytes, at(field, CType.of(inner), index));
  }

  /** Writes a 64-bit value (a CONTEXT the data target hands the DAC). */
  public void putUint64(F field, long value) {
    bytes.putLong(at(field, CType.UINT64, 0), value);
  }

  /** Writes a 32-bit value. */
  public void putInt32(F field, int value) {
    bytes.putInt(at(field, CType.INT32, 0), value);
  }

  /** Writes a {@code WORD}. */
  public void putUint16(F field, int value) {
    bytes.putShort(at(field, CType.UINT16, 0), (short) value);
  }
}
