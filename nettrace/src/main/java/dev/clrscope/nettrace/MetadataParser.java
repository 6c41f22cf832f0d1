package dev.clrscope.nettrace;

import java.util.ArrayList;
import java.util.List;

/**
 * Parses metadata records (the payloads of metadata events) of V3-V5.
 *
 * <pre>
 *  u32 metadataId | u16z provider | u32 eventId | u16z eventName | i64 keywords
 *  | u32 version | u32 level
 *  | [ u32 fieldCount, fieldCount x V1 field ]           (absent if the record ends here)
 *  | { i32 tagBytes, u8 tagKind, tagBytes of data }*    (V5 tags, see MetadataTag)
 *
 *  V1 field: u32 typeCode [u32 count + count V1 fields if Object] u16z name
 *  V2 field: i32 size (includes itself) u16z name, type, padding up to size
 *       type: u32 typeCode [type of element if Array] [u32 count + V2 fields if Object]
 * </pre>
 */
final class MetadataParser {
  private MetadataParser() {}

  static EventMetadata parse(PayloadCursor c) {
    int id = c.readI32("metadata id");
    String provider = c.readUtf16z("provider name");
    int eventId = c.readI32("event id");
    String eventName = c.readUtf16z("event name");
    long keywords = c.readI64("keywords");
    int version = c.readI32("event version");
    int level = c.readI32("event level");
    int opcode = 0;
    List<FieldDescriptor> fields = List.of();
    if (c.remaining() > 0) {
      fields = parseFieldsOrGiveUp(c, false);
      if (fields == null) {
        // An undecodable field list makes the rest of the record unreadable; keep the header.
        return new EventMetadata(
            id, provider, eventId, eventName, keywords, version, level, 0, List.of());
      }
      while (c.remaining() > 0) {
        int tagBytes = c.readI32("metadata tag size");
        int kind = c.readU8("metadata tag kind");
        PayloadCursor tag = c.slice(tagBytes, "metadata tag payload");
        if (kind == MetadataTag.OPCODE.code) {
          opcode = tag.readU8("opcode");
        } else if (kind == MetadataTag.V2_PARAMS.code) {
          List<FieldDescriptor> v2 = parseFieldsOrGiveUp(tag, true);
          fields = v2 == null ? List.of() : v2;
        }
      }
    }
    return new EventMetadata(
        id, provider, eventId, eventName, keywords, version, level, opcode, fields);
  }

  /** Null if a type code is unknown: like TraceEvent, keep the event but not its fields. */
  private static List<FieldDescriptor> parseFieldsOrGiveUp(PayloadCursor c, boolean v2) {
    try {
      return fieldList(c, v2, 0);
    } catch (UnknownTypeCode e) {
      return null;
    }
  }

  private static List<FieldDescriptor> fieldList(PayloadCursor c, boolean v2, int depth) {
    if (depth > SelfDescribedPayloadDecoder.MAX_DEPTH) {
      throw new NetTraceFormatException(c.streamOffset(), "metadata struct nesting too deep");
    }
    int count = c.readI32("field count");
    // Every field takes at least 6 bytes (type code and an empty name), so this bounds the list.
    if (count < 0 || (long) count * 6 > c.remaining()) {
      throw new NetTraceFormatException(
          c.streamOffset(),
          "field count " + count + " does not fit in " + c.remaining() + " bytes");
    }
    List<FieldDescriptor> fields = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      if (v2) {
        int size = c.readI32("V2 field size");
        PayloadCursor f = c.slice(size - 4, "V2 field");
        String name = f.readUtf16z("field name");
        fields.add(type(f, name, true, depth));
      } else {
        FieldDescriptor typed = type(c, "", false, depth);
        String name = c.readUtf16z("field name");
        fields.add(new FieldDescriptor(name, typed.type(), typed.elementType(), typed.fields(), 0));
      }
    }
    return fields;
  }

  private static FieldDescriptor type(PayloadCursor c, String name, boolean v2, int depth) {
    long at = c.streamOffset();
    int code = c.readI32("type code");
    TypeCode t = TypeCode.fromCode(code);
    if (t == null || t.code() > TypeCode.ARRAY.code() || (t == TypeCode.ARRAY && !v2)) {
      throw new UnknownTypeCode(at, code);
    }
    if (t == TypeCode.OBJECT) {
      return FieldDescriptor.struct(name, fieldList(c, v2, depth + 1));
    }
    if (t == TypeCode.ARRAY) {
      FieldDescriptor element = type(c, name, true, depth + 1);
      if (element.type() == TypeCode.ARRAY) {
        throw new UnknownTypeCode(at, code);
      }
      return new FieldDescriptor(name, TypeCode.ARRAY, element.type(), element.fields(), 0);
    }
    return FieldDescriptor.of(name, t);
  }

  /** Internal signal: a field type this parser cannot lay out. */
  private static final class UnknownTypeCode extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UnknownTypeCode(long offset, int code) {
      super("unknown type code " + code + " at " + offset, null, false, false);
    }
  }
}
