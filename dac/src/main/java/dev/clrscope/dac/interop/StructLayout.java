package dev.clrscope.dac.interop;

import com.sun.jna.Memory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The x64 layout of a C structure declared in {@link DacStructs}: each field placed after the one
 * before it at its type's alignment, the whole rounded up to its largest alignment, as a C compiler
 * lays it out. The size is checked against what the header says when it is given ({@code
 * dacprivate.h} asserts most of them: the DAC's structures never change).
 *
 * @param <F> the enum of its fields
 */
// A field's ordinal is its place in the header's declaration: what the layout is made of.
@SuppressWarnings("EnumOrdinal")
public final class StructLayout<F extends Enum<F> & StructField> {
  private final Class<F> fields;
  private final int[] offsets;
  private final int size;
  private final int alignment;

  private StructLayout(Class<F> fields, int minAlignment, int expectedSize) {
    this.fields = fields;
    F[] all = fields.getEnumConstants();
    offsets = new int[all.length];
    int at = 0;
    int align = minAlignment;
    for (F f : all) {
      at = roundUp(at, f.type().alignment());
      offsets[f.ordinal()] = at;
      at += f.type().size();
      align = Math.max(align, f.type().alignment());
    }
    this.alignment = align;
    this.size = roundUp(at, align);
    if (expectedSize != 0 && size != expectedSize) {
      throw new IllegalStateException(
          name() + " is laid out in " + size + " bytes; its header says " + expectedSize);
    }
  }

  /** The layout of {@code fields}, whose size the header gives as {@code size}. */
  public static <F extends Enum<F> & StructField> StructLayout<F> of(Class<F> fields, int size) {
    return new StructLayout<>(fields, 1, size);
  }

  /** The layout of a structure declared aligned to {@code alignment} ({@code DECLSPEC_ALIGN}). */
  public static <F extends Enum<F> & StructField> StructLayout<F> aligned(
      Class<F> fields, int alignment, int size) {
    return new StructLayout<>(fields, alignment, size);
  }

  private static int roundUp(int at, int alignment) {
    return (at + alignment - 1) / alignment * alignment;
  }

  /** The structure's name, as the header spells it. */
  public String name() {
    return fields.getSimpleName();
  }

  /** Its size in bytes. */
  public int size() {
    return size;
  }

  /** Its alignment. */
  public int alignment() {
    return alignment;
  }

  /** Where {@code field} starts. */
  public int offset(F field) {
    return offsets[field.ordinal()];
  }

  /** Its fields in order. */
  public java.util.List<F> fields() {
    return java.util.List.of(fields.getEnumConstants());
  }

  /** Zeroed native memory for one structure, or {@code count} in a row, for the DAC to fill. */
  public Memory allocate(int count) {
    Memory m = new Memory((long) size * count);
    m.clear();
    return m;
  }

  /** The structure that {@code memory} holds (as the DAC filled it). */
  public Struct<F> view(Memory memory) {
    return view(memory.getByteBuffer(0, memory.size()).order(ByteOrder.LITTLE_ENDIAN), 0);
  }

  /** The structure at byte {@code at} of {@code bytes} (little-endian). */
  public Struct<F> view(ByteBuffer bytes, int at) {
    return new Struct<>(this, bytes, at);
  }
}
