package dev.clrscope.nettrace;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses V6 metadata rows (the rows of a metadata block, after its header).
 *
 * <pre>
 *  row:    u16 size | varuint32 metadataId | string provider | varuint32 eventId | string name
 *          | fields | [ u16 optionalSize | optional item* ] | bytes for later versions
 *  fields: u16 count | count x ( u16 fieldSize | string name | type | bytes for later versions )
 *  type:   u8 typeCode
 *          [ type of the element ]      if Array (19), FixedLengthArray (22), RelLoc (24), DataLoc (25)
 *          [ u16 elementCount ]         if FixedLengthArray
 *          [ fields ]                   if Object (1)
 *  optional item: u8 kind (OptionalMetadataKind) | value
 * </pre>
 *
 * Strings are varuint32 byte length + UTF-8. Optional items have no size of their own, so an
 * unknown kind ends the list (the rest is skipped by the optional section's size).
 */
final class MetadataV6Parser {
  private MetadataV6Parser() {}

  /** Parses one row; {@code c} covers exactly the row's {@code size} bytes. */
  static EventMetadata parse(PayloadCursor c) {
    int id = c.readVarUInt32("metadata id");
    String provider = c.readVarUtf8("provider name");
    int eventId = c.readVarUInt32("event id");
    String eventName = c.readVarUtf8("event name");
    List<FieldDescriptor> fields;
    try {
      fields = fieldList(c, 0);
    } catch (UnknownType e) {
      // The payload layout is unknown, and so is where the field list ends: keep the header,
      // like TraceEvent does with unknown V5 type codes.
      return new EventMetadata(id, provider, eventId, eventName, 0, 0, 0, 0, List.of());
    }
    long keywords = 0;
    int version = 0;
    int level = 0;
    int opcode = 0;
    String template = "";
    String description = "";
    Map<String, String> keyValues = new LinkedHashMap<>();
    Guid providerGuid = Guid.EMPTY;
    if (c.remaining() > 0) {
      int size = c.readU16("optional metadata size");
      PayloadCursor items = c.slice(size, "optional metadata");
      while (items.remaining() > 0) {
        OptionalMetadataKind kind =
            OptionalMetadataKind.fromCode(items.readU8("optional metadata kind"));
        if (kind == null) {
          break;
        }
        switch (kind) {
          case OPCODE:
            opcode = items.readU8("opcode");
            break;
          case KEYWORDS:
            keywords = items.readI64("keywords");
            break;
          case MESSAGE_TEMPLATE:
            template = items.readVarUtf8("message template");
            break;
          case DESCRIPTION:
            description = items.readVarUtf8("description");
            break;
          case KEY_VALUE:
            keyValues.put(items.readVarUtf8("metadata key"), items.readVarUtf8("metadata value"));
            break;
          case PROVIDER_GUID:
            providerGuid = items.readGuid("provider GUID");
            break;
          case LEVEL:
            level = items.readU8("level");
            break;
          case VERSION:
            version = items.readU8("version");
            break;
        }
      }
    }
    return new EventMetadata(
        id,
        provider,
        eventId,
        eventName,
        keywords,
        version,
        level,
        opcode,
        fields,
        new MetadataAnnotations(template, description, keyValues, providerGuid));
  }

  private static List<FieldDescriptor> fieldList(PayloadCursor c, int depth) {
    if (depth > SelfDescribedPayloadDecoder.MAX_DEPTH) {
      throw new NetTraceFormatException(c.streamOffset(), "metadata struct nesting too deep");
    }
    long countAt = c.streamOffset();
    int count = c.readU16("field count");
    // Every field takes at least 2 bytes (its size), which bounds the list.
    if ((long) count * 2 > c.remaining()) {
      throw new NetTraceFormatException(
          countAt, "field count " + count + " does not fit in " + c.remaining() + " bytes");
    }
    List<FieldDescriptor> fields = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      int size = c.readU16("field size");
      PayloadCursor f = c.slice(size, "field description");
      String name = f.readVarUtf8("field name");
      fields.add(type(f, name, depth));
      // Bytes left in f belong to later format versions.
    }
    return fields;
  }

  private static FieldDescriptor type(PayloadCursor c, String name, int depth) {
    long at = c.streamOffset();
    int code = c.readU8("type code");
    TypeCode t = TypeCode.fromCode(code);
    if (t == null) {
      throw new UnknownType();
    }
    switch (t) {
      case OBJECT:
        return FieldDescriptor.struct(name, fieldList(c, depth + 1));
      case ARRAY:
      case FIXED_LENGTH_ARRAY:
      case REL_LOC:
      case DATA_LOC:
        {
          FieldDescriptor element = type(c, name, depth + 1);
          if (element.elementType() != null) {
            // Arrays of arrays have no place in FieldDescriptor; treat them as unknown.
            throw new UnknownType();
          }
          int count = t == TypeCode.FIXED_LENGTH_ARRAY ? c.readU16("fixed array length") : 0;
          if ((t == TypeCode.REL_LOC || t == TypeCode.DATA_LOC)
              && FieldDescriptor.fixedSize(element.type(), element.fields()) <= 0) {
            throw new NetTraceFormatException(
                at, t + " field " + name + " has an element type of variable size");
          }
          return new FieldDescriptor(name, t, element.type(), element.fields(), count);
        }
      default:
        return FieldDescriptor.of(name, t);
    }
  }

  /** Internal signal: a type this parser cannot lay out. */
  private static final class UnknownType extends RuntimeException {
    private static final long serialVersionUID = 1L;

    UnknownType() {
      super(null, null, false, false);
    }
  }
}
