package dev.clrscope.dac;

/** The CLI's element types ({@code CorElementType}) a field or an array element can have. */
public enum ElementType {
  END(0x00, 0, null),
  VOID(0x01, 0, "System.Void"),
  BOOLEAN(0x02, 1, "System.Boolean"),
  CHAR(0x03, 2, "System.Char"),
  I1(0x04, 1, "System.SByte"),
  U1(0x05, 1, "System.Byte"),
  I2(0x06, 2, "System.Int16"),
  U2(0x07, 2, "System.UInt16"),
  I4(0x08, 4, "System.Int32"),
  U4(0x09, 4, "System.UInt32"),
  I8(0x0a, 8, "System.Int64"),
  U8(0x0b, 8, "System.UInt64"),
  R4(0x0c, 4, "System.Single"),
  R8(0x0d, 8, "System.Double"),
  STRING(0x0e, 8, "System.String"),
  PTR(0x0f, 8, null),
  BYREF(0x10, 8, null),
  VALUETYPE(0x11, 0, null),
  CLASS(0x12, 8, null),
  VAR(0x13, 8, null),
  ARRAY(0x14, 8, null),
  GENERICINST(0x15, 8, null),
  TYPEDBYREF(0x16, 0, null),
  I(0x18, 8, "System.IntPtr"),
  U(0x19, 8, "System.UIntPtr"),
  FNPTR(0x1b, 8, null),
  OBJECT(0x1c, 8, "System.Object"),
  SZARRAY(0x1d, 8, null),
  MVAR(0x1e, 8, null),
  UNKNOWN(-1, 0, null);

  private final int code;
  private final int size;
  private final String typeName;

  ElementType(int code, int size, String typeName) {
    this.code = code;
    this.size = size;
    this.typeName = typeName;
  }

  /** The element type of a {@code CorElementType} code ({@link #UNKNOWN} for others). */
  public static ElementType of(int code) {
    for (ElementType t : values()) {
      if (t.code == code) {
        return t;
      }
    }
    return UNKNOWN;
  }

  /** The {@code CorElementType} code. */
  public int code() {
    return code;
  }

  /** Bytes a value of this type takes inline (0 for value types, whose size their type says). */
  public int size() {
    return size;
  }

  /** The type's name for primitives, strings and objects; null for the rest. */
  public String typeName() {
    return typeName;
  }

  /** Whether a value is stored inline as a number, character or boolean (pointers included). */
  public boolean isPrimitive() {
    return switch (this) {
      case BOOLEAN, CHAR, I1, U1, I2, U2, I4, U4, I8, U8, R4, R8, I, U, PTR, FNPTR -> true;
      default -> false;
    };
  }

  /**
   * Whether a value of this type is a value type stored inline: a number, a character, a boolean, a
   * native integer or a struct (SOS's {@code VT} column: {@code IsElementValueType}); pointers and
   * references are not.
   */
  public boolean isValueType() {
    return switch (this) {
      case BOOLEAN, CHAR, I1, U1, I2, U2, I4, U4, I8, U8, R4, R8, I, U, VALUETYPE -> true;
      default -> false;
    };
  }

  /** Whether a value is a reference to a GC object. */
  public boolean isReference() {
    return switch (this) {
      case STRING, CLASS, ARRAY, GENERICINST, OBJECT, SZARRAY, VAR, MVAR -> true;
      default -> false;
    };
  }
}
