package dev.clrscope.nettrace;

/**
 * Kinds of V6 labels, mirroring the spec's table. The high bit of the kind byte ({@link
 * #LAST_IN_LIST}) marks the last label of a list.
 */
enum LabelKind {
  /** 1: 16-byte activity id. */
  ACTIVITY_ID(1),
  /** 2: 16-byte related activity id. */
  RELATED_ACTIVITY_ID(2),
  /** 3: 16-byte W3C trace id. */
  TRACE_ID(3),
  /** 4: u64 W3C span id. */
  SPAN_ID(4),
  /** 5: string key, string value. */
  STRING_VALUE(5),
  /** 6: string key, varint64 value. */
  INTEGER_VALUE(6),
  /** 7: u8 opcode, overriding the metadata's. */
  OPCODE(7),
  /** 8: u64 keywords, overriding the metadata's. */
  KEYWORDS(8),
  /** 9: u8 level, overriding the metadata's. */
  LEVEL(9),
  /** 10: u8 version, overriding the metadata's. */
  VERSION(10);

  /** Bit of the kind byte that ends a label list. */
  static final int LAST_IN_LIST = 0x80;

  private static final LabelKind[] BY_CODE = new LabelKind[11];

  static {
    for (LabelKind k : values()) {
      BY_CODE[k.code] = k;
    }
  }

  final int code;

  LabelKind(int code) {
    this.code = code;
  }

  /** The kind with this code (high bit already masked off), or null. */
  static LabelKind fromCode(int code) {
    return code > 0 && code < BY_CODE.length ? BY_CODE[code] : null;
  }
}
