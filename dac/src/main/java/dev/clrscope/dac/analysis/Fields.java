package dev.clrscope.dac.analysis;

import dev.clrscope.dac.ClrField;
import dev.clrscope.dac.ClrObject;
import dev.clrscope.dac.ClrProcess;
import dev.clrscope.dac.ClrType;
import dev.clrscope.dac.ClrValue;
import dev.clrscope.dac.TargetException;
import dev.clrscope.dac.Value;

/**
 * Reading the runtime's own objects by field name, where a field may be missing in another runtime
 * version: every read answers null (or a default) rather than throwing, so an analysis skips what
 * it cannot read instead of failing as a whole.
 */
final class Fields {
  private Fields() {}

  /** The value of field {@code name} of {@code v}, or null when there is no such field. */
  static Value value(ClrValue v, String name) {
    if (v == null || v.type().field(name) == null) {
      return null;
    }
    try {
      return v.value(name);
    } catch (TargetException e) {
      return null;
    }
  }

  /** The address a reference field holds, or 0 (null, no such field, not a reference). */
  static long reference(ClrValue v, String name) {
    return value(v, name) instanceof Value.Reference r ? r.address() : 0;
  }

  /** The object a reference field holds, or null. */
  static ClrObject object(ClrProcess p, ClrValue v, String name) {
    return objectAt(p, reference(v, name));
  }

  /** The object at {@code address}, or null when it is 0 or not an object. */
  static ClrObject objectAt(ClrProcess p, long address) {
    if (address == 0) {
      return null;
    }
    try {
      return p.object(address);
    } catch (TargetException e) {
      return null;
    }
  }

  /** A number field, or {@code otherwise}. */
  static long number(ClrValue v, String name, long otherwise) {
    return value(v, name) instanceof Value.Primitive p ? p.asLong() : otherwise;
  }

  /** A struct field stored inline, or null. */
  static ClrValue struct(ClrValue v, String name) {
    return value(v, name) instanceof Value.Embedded e ? e.value() : null;
  }

  /**
   * A field that is a struct or a class, whichever this build made it (the C# compiler makes async
   * state machines structs in release builds, classes in debug builds): as a value to read fields
   * of, or null.
   */
  static ClrValue structOrObject(ClrProcess p, ClrValue v, String name) {
    Value value = value(v, name);
    if (value instanceof Value.Embedded e) {
      return e.value();
    }
    if (value instanceof Value.Reference r) {
      return objectAt(p, r.address());
    }
    return null;
  }

  /** The text of a string object, or null. */
  static String string(ClrObject o) {
    if (o == null || !o.type().isString()) {
      return null;
    }
    try {
      return o.asString();
    } catch (TargetException e) {
      return null;
    }
  }

  /** The static field {@code field} of the type named {@code type}: its value, or null. */
  static Value staticValue(ClrProcess p, String type, String field) {
    ClrType t = p.typeByName(type);
    ClrField f = t == null ? null : t.staticField(field);
    if (f == null) {
      return null;
    }
    try {
      return p.staticValue(t, f);
    } catch (TargetException e) {
      return null;
    }
  }

  /** Whether {@code t} or a base type of it is named {@code name}. */
  static boolean isA(ClrType t, String name) {
    for (ClrType x = t; x != null; x = parentOrNull(x)) {
      if (x.name().equals(name)) {
        return true;
      }
    }
    return false;
  }

  private static ClrType parentOrNull(ClrType t) {
    try {
      return t.parent();
    } catch (TargetException e) {
      return null;
    }
  }
}
