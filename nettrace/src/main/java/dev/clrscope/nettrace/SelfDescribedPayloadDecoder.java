package dev.clrscope.nettrace;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * Decodes a payload whose layout is described by EventSource field metadata. Every value costs one
 * unit of a fixed budget, so a corrupted payload of empty structs in nested arrays cannot make the
 * decoder run (or allocate) without bound.
 */
final class SelfDescribedPayloadDecoder {
  /** Most values one payload may decode to; a 64 KB payload holds far fewer real values. */
  static final int VALUE_BUDGET = 1 << 20;

  /** Struct nesting limit; metadata parsing enforces the same. */
  static final int MAX_DEPTH = 32;

  /** FILETIME of 1970-01-01 in 100 ns ticks since 1601-01-01. */
  private static final long FILETIME_UNIX_EPOCH = 116_444_736_000_000_000L;

  private final PayloadCursor in;
  private int budget = VALUE_BUDGET;

  private SelfDescribedPayloadDecoder(PayloadCursor in) {
    this.in = in;
  }

  static DecodedPayload decode(List<FieldDescriptor> fields, PayloadCursor in, int pointerSize) {
    if (fields.isEmpty()) {
      return DecodedPayload.EMPTY;
    }
    SelfDescribedPayloadDecoder d = new SelfDescribedPayloadDecoder(in);
    if (fields.size() == 1
        && fields.get(0).type() == TypeCode.OBJECT
        && fields.get(0).name().isEmpty()) {
      // EventSource.Write<T> (TraceLogging) events describe their payload as one unnamed struct
      // holding T's properties; its members are the event's fields (the bytes are the same).
      return new DecodedPayload(d.struct(fields.get(0).fields(), 1));
    }
    return new DecodedPayload(d.struct(fields, 0));
  }

  private LinkedHashMap<String, Object> struct(List<FieldDescriptor> fields, int depth) {
    if (depth > MAX_DEPTH) {
      throw new NetTraceFormatException(
          in.streamOffset(), "struct nesting deeper than " + MAX_DEPTH);
    }
    LinkedHashMap<String, Object> m = new LinkedHashMap<>();
    for (FieldDescriptor f : fields) {
      m.put(f.name(), value(f, f.type(), depth));
    }
    return m;
  }

  private Object value(FieldDescriptor f, TypeCode type, int depth) {
    if (--budget < 0) {
      throw new NetTraceFormatException(
          in.streamOffset(), "payload decodes to more than " + VALUE_BUDGET + " values");
    }
    String what = f.name();
    switch (type) {
      case OBJECT:
        return struct(f.fields(), depth + 1);
      case BOOLEAN32:
        return in.readI32(what) != 0;
      case BOOLEAN8:
        return in.readU8(what) != 0;
      case CHAR16:
        return (char) in.readU16(what);
      case UTF8_CHAR:
        return (char) in.readU8(what);
      case SBYTE:
        return (byte) in.readU8(what);
      case BYTE:
        return in.readU8(what);
      case INT16:
        return (short) in.readU16(what);
      case UINT16:
        return in.readU16(what);
      case INT32:
        return in.readI32(what);
      case UINT32:
      case REL_LOC:
      case DATA_LOC:
        return in.readU32(what);
      case INT64:
      case UINT64:
        return in.readI64(what);
      case SINGLE:
        return Float.intBitsToFloat(in.readI32(what));
      case DOUBLE:
        return Double.longBitsToDouble(in.readI64(what));
      case DECIMAL:
        return decimal(what);
      case DATE_TIME:
        return fileTime(in.readI64(what));
      case GUID:
        return in.readGuid(what);
      case STRING:
        return in.readUtf16z(what);
      case VAR_INT:
        {
          long z = in.readVarUInt64(what);
          return (z >>> 1) ^ -(z & 1);
        }
      case VAR_UINT:
        return in.readVarUInt64(what);
      case ARRAY:
        return array(f, in.readU16(what), depth);
      case FIXED_LENGTH_ARRAY:
        return array(f, f.fixedCount(), depth);
    }
    throw new NetTraceFormatException(in.streamOffset(), "unsupported type " + type);
  }

  private List<Object> array(FieldDescriptor f, int count, int depth) {
    TypeCode element = f.elementType();
    if (element == null || element == TypeCode.ARRAY || element == TypeCode.FIXED_LENGTH_ARRAY) {
      throw new NetTraceFormatException(
          in.streamOffset(), "array " + f.name() + " without element type");
    }
    int fixed = element.fixedSize();
    if (fixed > 0) {
      in.require((long) fixed * count, "array " + f.name());
    }
    List<Object> list = new ArrayList<>(Math.min(count, 1024));
    for (int i = 0; i < count; i++) {
      list.add(value(f, element, depth + 1));
    }
    return list;
  }

  private BigDecimal decimal(String what) {
    int flags = in.readI32(what);
    long hi = in.readU32(what);
    long lo = in.readU32(what);
    long mid = in.readU32(what);
    BigInteger unscaled =
        BigInteger.valueOf(hi)
            .shiftLeft(64)
            .or(BigInteger.valueOf(mid << 32 | lo).and(new BigInteger("FFFFFFFFFFFFFFFF", 16)));
    int scale = (flags >>> 16) & 0xFF;
    BigDecimal d = new BigDecimal(unscaled, scale);
    return flags < 0 ? d.negate() : d;
  }

  /** FILETIME ticks (100 ns since 1601) to an instant. */
  static Instant fileTime(long ticks) {
    long sinceUnix = ticks - FILETIME_UNIX_EPOCH;
    return Instant.ofEpochSecond(
        Math.floorDiv(sinceUnix, 10_000_000L), Math.floorMod(sinceUnix, 10_000_000L) * 100);
  }
}
