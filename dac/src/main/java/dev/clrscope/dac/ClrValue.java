package dev.clrscope.dac;

import java.util.ArrayList;
import java.util.List;

/**
 * Data laid out by a type's instance fields: a whole object (its data starts after the method table
 * pointer) or a struct stored inline in an object, an array or a static. Field reads go to target
 * memory each time; nothing is cached.
 */
public class ClrValue {
  final ClrReader reader;
  private final long address;
  private final long dataStart;
  private final ClrType type;

  ClrValue(ClrReader reader, long address, long dataStart, ClrType type) {
    this.reader = reader;
    this.address = address;
    this.dataStart = dataStart;
    this.type = type;
  }

  /** The object's address, or the embedded struct's. */
  public long address() {
    return address;
  }

  /** Its type. */
  public ClrType type() {
    return type;
  }

  /** Where its field offsets count from. */
  long dataStart() {
    return dataStart;
  }

  /** The value of {@code field}, one of this type's instance fields. */
  public Value value(ClrField field) {
    return reader.readValue(
        dataStart + field.offset(), field.elementType(), field.fieldTypeMethodTable());
  }

  /** The value of the instance field named {@code name}. */
  public Value value(String name) {
    return value(fieldNamed(name));
  }

  /** Every instance field with its value, in the type's field order. */
  public List<FieldValue> fieldValues() {
    List<FieldValue> out = new ArrayList<>();
    for (ClrField f : type.fields()) {
      out.add(new FieldValue(f, value(f)));
    }
    return out;
  }

  /** A field and its value. */
  public record FieldValue(ClrField field, Value value) {}

  private ClrField fieldNamed(String name) {
    ClrField f = type.field(name);
    if (f == null) {
      throw new IllegalArgumentException(type.name() + " has no instance field " + name);
    }
    return f;
  }

  private Value.Primitive primitive(String name) {
    Value v = value(name);
    if (v instanceof Value.Primitive p) {
      return p;
    }
    throw new IllegalArgumentException(type.name() + "." + name + " is not a number");
  }

  /** An {@code int} (or smaller integer) field. */
  public int intField(String name) {
    return primitive(name).asInt();
  }

  /** A {@code long} field. */
  public long longField(String name) {
    return primitive(name).asLong();
  }

  /** A {@code double} or {@code float} field. */
  public double doubleField(String name) {
    return primitive(name).asDouble();
  }

  /** A {@code bool} field. */
  public boolean booleanField(String name) {
    return primitive(name).asBoolean();
  }

  /** A {@code char} field. */
  public char charField(String name) {
    return primitive(name).asChar();
  }

  /** The address a reference field holds (0 for null). */
  public long referenceField(String name) {
    Value v = value(name);
    if (v instanceof Value.Reference r) {
      return r.address();
    }
    throw new IllegalArgumentException(type.name() + "." + name + " is not a reference");
  }

  /** The object a reference field holds, or null. */
  public ClrObject objectField(String name) {
    long address = referenceField(name);
    return address == 0 ? null : reader.object(address);
  }

  /** The text of a string field, or null. */
  public String stringField(String name) {
    ClrObject o = objectField(name);
    return o == null ? null : o.asString();
  }

  /** A struct field stored inline. */
  public ClrValue structField(String name) {
    Value v = value(name);
    if (v instanceof Value.Embedded e) {
      return e.value();
    }
    throw new IllegalArgumentException(type.name() + "." + name + " is not a struct");
  }

  @Override
  public String toString() {
    return "0x" + Long.toHexString(address) + " " + type.name();
  }
}
