package dev.clrscope.cli.commands.analyze;

import dev.clrscope.cli.render.Unit;
import dev.clrscope.dac.ClrHeap;
import dev.clrscope.dac.ClrObject;
import dev.clrscope.dac.ClrType;
import dev.clrscope.dac.TargetException;
import dev.clrscope.dac.Value;

/**
 * A field's or element's value for each format: JSON gets a number, a boolean, a string for a
 * character, an address as {@code "0x..."}; a table gets what SOS shows. A reference to a string
 * carries the string's text, as SOS's {@code dumpobj} shows it for a {@code System.String}.
 */
final class ValueText {
  private ValueText() {}

  /** How much of a string a listing shows. */
  static final int SHOWN = 200;

  /** The value as JSON carries it. */
  static Object json(Value v) {
    if (v instanceof Value.Primitive p) {
      return switch (p.type()) {
        case BOOLEAN -> p.asBoolean();
        case CHAR -> String.valueOf(p.asChar());
        case R4, R8 -> p.asDouble();
        case I, U, PTR, FNPTR -> Unit.address(p.asLong());
        case U8 -> p.asLong() < 0 ? Long.toUnsignedString(p.asLong()) : p.asLong();
        default -> p.asLong();
      };
    }
    if (v instanceof Value.Reference r) {
      return r.isNull() ? null : Unit.address(r.address());
    }
    return Unit.address(((Value.Embedded) v).value().address());
  }

  /** The value as a table shows it: pointer-sized integers in hexadecimal, as SOS shows them. */
  static String text(Value v) {
    if (v instanceof Value.Primitive p) {
      switch (p.type()) {
        case I, U, PTR, FNPTR:
          return Unit.address(p.asLong());
        default:
          break;
      }
    }
    return v.display();
  }

  /**
   * The text of the string a reference holds, cut to {@link #SHOWN} characters; null when it holds
   * no string (or nothing that reads as an object).
   */
  static String stringOf(ClrHeap p, Value v) {
    if (!(v instanceof Value.Reference r) || r.isNull()) {
      return null;
    }
    try {
      ClrObject o = p.object(r.address());
      return o.type().isString() ? cut(o.asString()) : null;
    } catch (TargetException e) {
      return null;
    }
  }

  /** The type of the object a reference holds, or null. */
  static ClrType typeOf(ClrHeap p, Value v) {
    if (!(v instanceof Value.Reference r) || r.isNull()) {
      return null;
    }
    try {
      return p.object(r.address()).type();
    } catch (TargetException e) {
      return null;
    }
  }

  /** {@code 0x...} for an address, null for 0: an address a table shows beside other text. */
  static String hex(long address) {
    return address == 0 ? null : Unit.address(address);
  }

  /** {@code text} cut to {@link #SHOWN} characters, marked when cut. */
  static String cut(String text) {
    return text.length() > SHOWN ? text.substring(0, SHOWN) + "..." : text;
  }

  /** A table cell of a value, with the string it holds in quotes when it holds one. */
  static String cell(Value v, String string) {
    return string == null ? text(v) : text(v) + " \"" + string + "\"";
  }
}
