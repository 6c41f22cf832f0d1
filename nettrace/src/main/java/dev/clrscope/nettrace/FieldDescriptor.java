package dev.clrscope.nettrace;

import java.util.List;

/**
 * One payload field described by EventSource metadata.
 *
 * @param name field name
 * @param type the field's type
 * @param elementType element type for {@link TypeCode#ARRAY}, {@link TypeCode#FIXED_LENGTH_ARRAY}
 *     and the V6 {@link TypeCode#REL_LOC} and {@link TypeCode#DATA_LOC}, else null
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

  /**
   * Encoded size of a value of {@code type} (with struct {@code members} for {@link
   * TypeCode#OBJECT}), or -1 if variable; V6 RelLoc/DataLoc elements must be fixed-size.
   */
  static int fixedSize(TypeCode type, List<FieldDescriptor> members) {
    if (type != TypeCode.OBJECT) {
      return type.fixedSize();
    }
    long sum = 0;
    for (FieldDescriptor m : members) {
      long size;
      if (m.type == TypeCode.FIXED_LENGTH_ARRAY) {
        int element = m.elementType == null ? -1 : fixedSize(m.elementType, m.fields);
        size = element < 0 ? -1 : (long) element * m.fixedCount;
      } else if (m.type == TypeCode.OBJECT) {
        size = fixedSize(TypeCode.OBJECT, m.fields);
      } else {
        size = m.type.fixedSize();
      }
      // Beyond a payload's 64 KB a size is as useless as a variable one (and could overflow).
      if (size < 0 || sum + size > MAX_FIXED_SIZE) {
        return -1;
      }
      sum += size;
    }
    return (int) sum;
  }

  private static final int MAX_FIXED_SIZE = 1 << 20;

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
