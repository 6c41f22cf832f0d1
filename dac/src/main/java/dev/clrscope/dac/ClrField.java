package dev.clrscope.dac;

/**
 * A field of a type.
 *
 * @param name its name from the module's metadata (or {@code <token 0x04000012>} without it)
 * @param typeName its type's name
 * @param elementType how its value is stored
 * @param offset for instance fields, the byte offset of its value from the start of the object's
 *     (or embedded value's) data, after the method table pointer; for static fields, from its
 *     type's static base
 * @param kind instance, static or thread-static
 * @param fieldTypeMethodTable its type's method table when loaded, else 0
 * @param declaringType the method table of the type that declares it
 * @param token its metadata token
 * @param fieldDesc the runtime's FieldDesc
 */
public record ClrField(
    String name,
    String typeName,
    ElementType elementType,
    int offset,
    Kind kind,
    long fieldTypeMethodTable,
    long declaringType,
    int token,
    long fieldDesc) {
  /** Instance, static or thread-static. */
  public enum Kind {
    INSTANCE,
    STATIC,
    THREAD_STATIC
  }

  /** Whether its value is a reference to a GC object. */
  public boolean isReference() {
    return elementType.isReference();
  }
}
