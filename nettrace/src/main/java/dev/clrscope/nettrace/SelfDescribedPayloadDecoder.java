package dev.clrscope.nettrace;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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

  /** The bytes being decoded; a RelLoc/DataLoc swaps in the window it points to meanwhile. */
  private PayloadCursor in;

  private int budget = VALUE_BUDGET;

  /** The whole payload, unread: where RelLoc/DataLoc offsets are resolved. */
  private final PayloadCursor payload;

  private SelfDescribedPayloadDecoder(PayloadCursor in) {
    this.in = in;
    this.payload = in.window(0, in.remaining(), "payload");
  }

  static DecodedPayload decode(List<FieldDescriptor> fields, PayloadCursor in, int pointerSize) {
    if (fields.isEmpty()) {
      return DecodedPayload.EMPTY;
    }
    LinkedHashMap<String, Object> out = new LinkedHashMap<>();
    new SelfDescribedPayloadDecoder(in).topLevel(fields, out);
    return new DecodedPayload(out);
  }

  /**
   * Decodes as far as the payload matches its metadata: on a mismatch the result holds the
   * top-level fields decoded before it, {@code _undecodable} with the problem and its payload
   * offset, and {@code _payloadHex}.
   */
  static DecodedPayload decodePartially(
      List<FieldDescriptor> fields, PayloadCursor in, int pointerSize) {
    if (fields.isEmpty()) {
      return DecodedPayload.EMPTY;
    }
    LinkedHashMap<String, Object> out = new LinkedHashMap<>();
    long payloadStart = in.streamOffset();
    try {
      new SelfDescribedPayloadDecoder(in).topLevel(fields, out);
    } catch (NetTraceFormatException e) {
      out.put(UNDECODABLE_KEY, e.problem() + " at payload offset " + (e.offset() - payloadStart));
      // hex() covers the whole slice wherever the cursor stopped; built only on failure.
      out.put(PAYLOAD_HEX_KEY, in.hex());
    }
    return new DecodedPayload(out);
  }

  /** Key of the problem marker that {@link #decodePartially} adds (as {@code EventFields}). */
  static final String UNDECODABLE_KEY = "_undecodable";

  /** Key of the raw payload (lowercase hex) that {@link #decodePartially} adds. */
  static final String PAYLOAD_HEX_KEY = "_payloadHex";

  private void topLevel(List<FieldDescriptor> fields, Map<String, Object> out) {
    if (fields.size() == 1
        && fields.get(0).type() == TypeCode.OBJECT
        && fields.get(0).name().isEmpty()) {
      // EventSource.Write<T> (TraceLogging) events describe their payload as one unnamed struct
      // holding T's properties; its members are the event's fields (the bytes are the same).
      fill(fields.get(0).fields(), 1, out);
    } else {
      fill(fields, 0, out);
    }
  }

  private Map<String, Object> struct(List<FieldDescriptor> fields, int depth) {
    Map<String, Object> m = new LinkedHashMap<>();
    fill(fields, depth, m);
    return m;
  }

  /** Puts each field into {@code m} as soon as it is decoded, so a failure keeps the earlier. */
  private void fill(List<FieldDescriptor> fields, int depth, Map<String, Object> m) {
    if (depth > MAX_DEPTH) {
      throw new NetTraceFormatException(
          in.streamOffset(), "struct nesting deeper than " + MAX_DEPTH);
    }
    for (FieldDescriptor f : fields) {
      m.put(f.name(), value(f, f.type(), depth));
    }
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
        return in.readU32(what);
      case REL_LOC:
      case DATA_LOC:
        return location(f, type, depth);
      case INT64:
        return in.readI64(what);
      case UINT64:
        return DecodedPayload.unsigned64(in.readI64(what));
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
        return DecodedPayload.unsigned64(in.readVarUInt64(what));
      case ARRAY:
        return array(f, in.readU16(what), depth);
      case FIXED_LENGTH_ARRAY:
        return array(f, f.fixedCount(), depth);
    }
    throw new NetTraceFormatException(in.streamOffset(), "unsupported type " + type);
  }

  /**
   * V6 RelLoc/DataLoc: a u32 locating the elements elsewhere in the payload. Without an element
   * type (V5 metadata cannot give one) the raw u32 is the value.
   *
   * <pre>
   *  u32: size (bytes) &lt;&lt; 16 | offset
   *  RelLoc offset: from the end of this u32;  DataLoc offset: from the payload start
   * </pre>
   */
  private Object location(FieldDescriptor f, TypeCode type, int depth) {
    long at = in.streamOffset();
    long loc = in.readU32(f.name());
    if (f.elementType() == null) {
      return loc;
    }
    int size = (int) (loc >>> 16);
    long offset = loc & 0xFFFF;
    long from =
        type == TypeCode.REL_LOC ? in.streamOffset() - payload.streamOffset() + offset : offset;
    int elementSize = FieldDescriptor.fixedSize(f.elementType(), f.fields());
    if (elementSize <= 0 || size % elementSize != 0) {
      throw new NetTraceFormatException(
          at,
          type
              + " "
              + f.name()
              + ": "
              + size
              + " bytes are not a whole number of fixed-size elements ("
              + elementSize
              + ")");
    }
    PayloadCursor outer = in;
    in = payload.window(from, size, type + " " + f.name());
    try {
      return array(f, size / elementSize, depth);
    } finally {
      in = outer;
    }
  }

  private List<Object> array(FieldDescriptor f, int count, int depth) {
    TypeCode element = f.elementType();
    if (element == null
        || element == TypeCode.ARRAY
        || element == TypeCode.FIXED_LENGTH_ARRAY
        || element == TypeCode.REL_LOC
        || element == TypeCode.DATA_LOC) {
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
