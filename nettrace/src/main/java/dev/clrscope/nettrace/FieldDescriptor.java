package dev.clrscope.nettrace;

import java.util.List;

/**
 * One payload field described by EventSource metadata.
 *
 * @param name field name
 * @param type the field's type
 * @param elementType element type for {@link TypeCode#ARRAY} and {@link
 *     TypeCode#FIXED_LENGTH_ARRAY}, else null
 * @param fields struct members when {@code type} (or {@code elementType}) is {@link
 *     TypeCode#OBJECT}; empty otherwise
 * @param fixedCount element count of a {@link TypeCode#FIXED_LENGTH_ARRAY}, else 0
 */
public record FieldDescriptor(
    String name,
    TypeCode type,
    TypeCode elementType,
    List<FieldDescriptor> fields,
    int fixedCount) {

  public FieldDescriptor {
    fields = List.copyOf(fields);
  }

  /** A scalar field. */
  public static FieldDescriptor of(String name, TypeCode type) {
    return new FieldDescriptor(name, type, null, List.of(), 0);
  }

  /** A u16-counted array of {@code elementType}. */
  public static FieldDescriptor arrayOf(String name, TypeCode elementType) {
    return new FieldDescriptor(name, TypeCode.ARRAY, elementType, List.of(), 0);
  }

  /** A nested struct. */
  public static FieldDescriptor struct(String name, List<FieldDescriptor> fields) {
    return new FieldDescriptor(name, TypeCode.OBJECT, null, fields, 0);
  }

  /** True if this field or any member needs the V2 field layout (an array) to be written. */
  boolean needsV2Layout() {
    if (type == TypeCode.ARRAY || type == TypeCode.FIXED_LENGTH_ARRAY) {
      return true;
    }
    for (FieldDescriptor f : fields) {
      if (f.needsV2Layout()) {
        return true;
      }
    }
    return false;
  }
}
