package dev.clrscope.nettrace;

/**
 * Kinds of the optional items that end a V6 metadata row, mirroring the spec's table (2 was the V5
 * V2Params tag and is unused).
 */
enum OptionalMetadataKind {
  /** 1: u8 opcode. */
  OPCODE(1),
  /** 3: u64 keywords. */
  KEYWORDS(3),
  /** 4: string message template. */
  MESSAGE_TEMPLATE(4),
  /** 5: string description. */
  DESCRIPTION(5),
  /** 6: string key, string value. */
  KEY_VALUE(6),
  /** 7: 16-byte provider GUID. */
  PROVIDER_GUID(7),
  /** 8: u8 level. */
  LEVEL(8),
  /** 9: u8 version. */
  VERSION(9);

  final int code;

  OptionalMetadataKind(int code) {
    this.code = code;
  }

  /** The kind with this code, or null. */
  static OptionalMetadataKind fromCode(int code) {
    for (OptionalMetadataKind k : values()) {
      if (k.code == code) {
        return k;
      }
    }
    return null;
  }
}
