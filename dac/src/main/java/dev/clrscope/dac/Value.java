package dev.clrscope.dac;

/** The value of a field or array element. */
public sealed interface Value {
  /** How it prints in a listing: numbers in decimal, references in hex, structs by address. */
  String display();

  /**
   * A number, character, boolean or pointer stored inline.
   *
   * @param type how it is stored
   * @param bits its bytes as a little-endian integer (sign-extended for signed types)
   */
  record Primitive(ElementType type, long bits) implements Value {
    public long asLong() {
      return bits;
    }

    public int asInt() {
      return (int) bits;
    }

    public boolean asBoolean() {
      return bits != 0;
    }

    public char asChar() {
      return (char) bits;
    }

    public double asDouble() {
      return type == ElementType.R4
          ? Float.intBitsToFloat((int) bits)
          : type == ElementType.R8 ? Double.longBitsToDouble(bits) : bits;
    }

    @Override
    public String display() {
      return switch (type) {
        case R4 -> Float.toString(Float.intBitsToFloat((int) bits));
        case R8 -> Double.toString(Double.longBitsToDouble(bits));
        case BOOLEAN -> bits != 0 ? "true" : "false";
        case CHAR -> "'" + (char) bits + "' (" + bits + ")";
        case U8, U, PTR, FNPTR -> Long.toUnsignedString(bits);
        default -> Long.toString(bits);
      };
    }
  }

  /** A reference to a GC object; {@code 0} is null. */
  record Reference(long address) implements Value {
    public boolean isNull() {
      return address == 0;
    }

    @Override
    public String display() {
      return address == 0 ? "null" : "0x" + Long.toHexString(address);
    }
  }

  /** A struct stored inline in its holder. */
  record Embedded(ClrValue value) implements Value {
    @Override
    public String display() {
      return "0x" + Long.toHexString(value.address()) + " (" + value.type().name() + ")";
    }
  }
}
