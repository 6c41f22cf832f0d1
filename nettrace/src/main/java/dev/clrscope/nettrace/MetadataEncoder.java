package dev.clrscope.nettrace;

import java.util.List;

/** Serialises a metadata record in the layout {@link MetadataParser} reads. */
final class MetadataEncoder {
  private MetadataEncoder() {}

  static void encode(EventMetadata m, GrowableBuffer b) {
    b.i32(m.metadataId());
    b.utf16z(m.providerName());
    b.i32(m.eventId());
    b.utf16z(m.eventName());
    b.i64(m.keywords());
    b.i32(m.version());
    b.i32(m.level());
    boolean v2 = m.fields().stream().anyMatch(FieldDescriptor::needsV2Layout);
    if (m.fields().isEmpty() && m.opcode() == 0) {
      // Like the runtime for native events: the record ends after the level.
      return;
    }
    if (v2) {
      b.i32(0);
    } else {
      v1Fields(m.fields(), b);
    }
    if (m.opcode() != 0) {
      b.i32(1);
      b.u8(MetadataTag.OPCODE.code);
      b.u8(m.opcode());
    }
    if (v2) {
      GrowableBuffer tag = new GrowableBuffer();
      v2Fields(m.fields(), tag);
      b.i32(tag.size());
      b.u8(MetadataTag.V2_PARAMS.code);
      b.bytes(tag.array(), 0, tag.size());
    }
  }

  private static void v1Fields(List<FieldDescriptor> fields, GrowableBuffer b) {
    b.i32(fields.size());
    for (FieldDescriptor f : fields) {
      b.i32(f.type().code());
      if (f.type() == TypeCode.OBJECT) {
        v1Fields(f.fields(), b);
      }
      b.utf16z(f.name());
    }
  }

  private static void v2Fields(List<FieldDescriptor> fields, GrowableBuffer b) {
    b.i32(fields.size());
    for (FieldDescriptor f : fields) {
      int sizeAt = b.size();
      b.i32(0);
      b.utf16z(f.name());
      v2Type(f.type(), f, b);
      b.patchI32(sizeAt, b.size() - sizeAt);
    }
  }

  private static void v2Type(TypeCode type, FieldDescriptor f, GrowableBuffer b) {
    b.i32(type.code());
    if (type == TypeCode.ARRAY) {
      v2Type(f.elementType(), f, b);
    } else if (type == TypeCode.OBJECT) {
      v2Fields(f.fields(), b);
    }
  }
}
