package dev.clrscope.dac.interop;

/**
 * A field of a C structure the DAC fills: a constant of that structure's enum in {@link
 * DacStructs}, declared in its header's order with its C type, so that {@link StructLayout} places
 * it as a C compiler does.
 */
public interface StructField {
  /** The field's name as the header spells it. */
  String name();

  /** Its place in the structure. */
  int ordinal();

  /** Its C type. */
  CType type();
}
