package dev.clrscope.nettrace.events;

import dev.clrscope.nettrace.DecodedPayload;
import dev.clrscope.nettrace.NetTraceFormatException;
import dev.clrscope.nettrace.PayloadCursor;
import dev.clrscope.nettrace.events.RuntimeManifest.Field;
import dev.clrscope.nettrace.events.RuntimeManifest.FieldType;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Decodes a native runtime event's payload by its manifest layout into field name to value, in
 * payload order. Values: u8/u16/i8/i16/i32 as Integer, u32/i64 as Long, u64 and pointers as Long
 * or, from 2^63 up, as an unsigned BigInteger; bool as Boolean; strings; GUIDs; binary as lowercase
 * hex; arrays as lists; structs as maps.
 *
 * <p>A payload that ends exactly between two top-level fields is an older version of the event and
 * decodes to the fields present. One that ends inside a field, or whose counts ask for more bytes
 * than are left, fails with the format exception at that offset. Bytes left after the whole layout
 * (a version newer than the table) are kept, as lowercase hex, under {@link
 * EventFields#UNKNOWN_TAIL}.
 */
final class ManifestPayloadDecoder {
  private final PayloadCursor in;
  private final int pointerSize;

  private ManifestPayloadDecoder(PayloadCursor in, int pointerSize) {
    this.in = in;
    this.pointerSize = pointerSize;
  }

  static LinkedHashMap<String, Object> decode(
      RuntimeManifest.Event event, PayloadCursor payload, int pointerSize) {
    ManifestPayloadDecoder d = new ManifestPayloadDecoder(payload, pointerSize);
    LinkedHashMap<String, Object> out = new LinkedHashMap<>();
    for (Field f : event.fields()) {
      if (payload.remaining() == 0) {
        break;
      }
      out.put(f.name(), d.field(f, List.of(out)));
    }
    if (payload.remaining() > 0) {
      out.put(
          EventFields.UNKNOWN_TAIL,
          EventFields.hex(payload.readBytes(payload.remaining(), EventFields.UNKNOWN_TAIL)));
    }
    return out;
  }

  /** Reads one field; {@code scopes} are the maps an earlier count or length may name. */
  private Object field(Field f, List<Map<String, Object>> scopes) {
    if (f.count() == null) {
      return value(f, scopes);
    }
    long n = number(f.count(), scopes, f.name());
    int min = minSize(f, scopes);
    // Bound the element count by the bytes left before allocating anything for it.
    in.require(n * Math.max(min, 1), f.name() + " (" + n + " items)");
    List<Object> items = new ArrayList<>((int) n);
    for (long i = 0; i < n; i++) {
      items.add(value(f, scopes));
    }
    return items;
  }

  private Object value(Field f, List<Map<String, Object>> scopes) {
    String what = f.name();
    return switch (f.type()) {
      case U8 -> in.readU8(what);
      case I8 -> (int) (byte) in.readU8(what);
      case U16 -> in.readU16(what);
      case I16 -> (int) (short) in.readU16(what);
      case U32 -> in.readU32(what);
      case I32 -> in.readI32(what);
      case U64 -> DecodedPayload.unsigned64(in.readI64(what));
      case I64 -> in.readI64(what);
      case F32 -> Float.intBitsToFloat(in.readI32(what));
      case F64 -> Double.longBitsToDouble(in.readI64(what));
      case BOOL -> in.readI32(what) != 0;
      case PTR -> DecodedPayload.unsigned64(in.readPointer(pointerSize, what));
      case GUID -> in.readGuid(what);
      case STR ->
          f.length() == null
              ? in.readUtf16z(what)
              : utf16(in.readBytes(checkedLength(f, scopes, 2), what));
      case ASTR ->
          f.length() == null
              ? ansiz(what)
              : new String(
                      in.readBytes(checkedLength(f, scopes, 1), what), StandardCharsets.ISO_8859_1)
                  .transform(ManifestPayloadDecoder::beforeNul);
      case BIN ->
          EventFields.hex(
              in.readBytes(
                  f.length() == null ? in.remaining() : checkedLength(f, scopes, 1), what));
      case STRUCT -> {
        LinkedHashMap<String, Object> m = new LinkedHashMap<>();
        List<Map<String, Object>> inner = new ArrayList<>(scopes.size() + 1);
        inner.add(m);
        inner.addAll(scopes);
        for (Field member : f.members()) {
          m.put(member.name(), field(member, inner));
        }
        yield m;
      }
    };
  }

  private int checkedLength(Field f, List<Map<String, Object>> scopes, int unit) {
    long n = number(f.length(), scopes, f.name());
    in.require(n * unit, f.name());
    return (int) (n * unit);
  }

  /** The smallest size of one element of {@code f}, for bounding counts. */
  private int minSize(Field f, List<Map<String, Object>> scopes) {
    if (f.type() == FieldType.STRUCT) {
      int sum = 0;
      for (Field m : f.members()) {
        sum += m.count() == null ? m.type().minSize(pointerSize) : 0;
      }
      return sum;
    }
    if (f.length() != null && f.length().chars().allMatch(Character::isDigit)) {
      int unit = f.type() == FieldType.STR ? 2 : 1;
      return (int) Math.min(Integer.MAX_VALUE, Long.parseLong(f.length()) * unit);
    }
    return f.type().minSize(pointerSize);
  }

  /** A count or length: a decimal number, or the value of an earlier field in scope. */
  private long number(String ref, List<Map<String, Object>> scopes, String what) {
    if (!ref.isEmpty() && ref.chars().allMatch(Character::isDigit)) {
      return Long.parseLong(ref);
    }
    for (Map<String, Object> scope : scopes) {
      Object v = scope.get(ref);
      if (v instanceof Number n) {
        long count = n.longValue();
        if (count < 0 || count > Integer.MAX_VALUE) {
          throw new NetTraceFormatException(
              in.streamOffset(), what + ": count " + ref + " = " + v + " is out of range");
        }
        return count;
      }
    }
    throw new NetTraceFormatException(
        in.streamOffset(), what + ": its count " + ref + " was not read before it");
  }

  private String ansiz(String what) {
    long start = in.streamOffset();
    StringBuilder sb = new StringBuilder();
    while (true) {
      if (in.remaining() == 0) {
        throw new NetTraceFormatException(start, what + ": string not terminated");
      }
      int b = in.readU8(what);
      if (b == 0) {
        return sb.toString();
      }
      sb.append((char) b);
    }
  }

  private static String utf16(byte[] b) {
    return beforeNul(new String(b, StandardCharsets.UTF_16LE));
  }

  /** A fixed-length string ends at its first NUL, as the runtime pads it. */
  private static String beforeNul(String s) {
    int nul = s.indexOf('\0');
    return nul < 0 ? s : s.substring(0, nul);
  }
}
