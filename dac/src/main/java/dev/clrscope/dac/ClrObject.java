package dev.clrscope.dac;

import dev.clrscope.dac.TargetException.Problem;

/**
 * A managed object on the GC heap, checked to be one when it was made ({@link ClrHeap#object}). Its
 * fields, its elements if it is an array, its text if it is a string and its references are read
 * from target memory on each call.
 */
public final class ClrObject extends ClrValue {
  private final long size;

  ClrObject(ClrReader reader, long address, ClrType type, long size) {
    super(reader, address, address + 8, type);
    this.size = size;
  }

  /** Its size as SOS counts it (not rounded to the heap's alignment). */
  public long size() {
    return size;
  }

  /** For arrays and strings: the number of elements (characters). */
  public long length() {
    if (type().componentSize() == 0) {
      return 0;
    }
    return Integer.toUnsignedLong(reader.readInt(address() + 8));
  }

  /** The text of a string. */
  public String asString() {
    if (!type().isString()) {
      throw new IllegalArgumentException(this + " is not a string");
    }
    return reader.readString(address());
  }

  /** Where element {@code index} of an array starts. */
  public long elementAddress(long index) {
    if (!type().isArray()) {
      throw new IllegalArgumentException(this + " is not an array");
    }
    long length = length();
    if (index < 0 || index >= length) {
      throw new IndexOutOfBoundsException("index " + index + " of an array of " + length);
    }
    // Elements start after the header, the length and, for multi-dimensional arrays, the bounds:
    // the base size less the object header's 8 bytes.
    return address() + type().baseSize() - 8 + index * type().componentSize();
  }

  /** Element {@code index} of an array. */
  public Value element(long index) {
    long at = elementAddress(index);
    ElementType e = type().elementType();
    if (e == ElementType.UNKNOWN) {
      throw new TargetException(
          Problem.UNREADABLE_MEMORY, "the element type of " + type().name() + " is not known");
    }
    return reader.readValue(
        at, e, type().elementClrType() == null ? 0 : type().elementClrType().methodTable());
  }

  /** Calls {@code visitor} for each non-null reference the object holds. */
  public void references(ReferenceVisitor visitor) {
    reader.referencesOf(this, visitor);
  }
}
