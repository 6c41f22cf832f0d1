package dev.clrscope.nettrace;

/**
 * Optional tags after the V1 field list of a V5 metadata record.
 *
 * <pre>
 *  +------------------+----------+-----------------------+
 *  | i32 payloadBytes | u8 kind  | payloadBytes of data  |
 *  +------------------+----------+-----------------------+
 * </pre>
 */
enum MetadataTag {
  /** 1: payload is one byte, the opcode. */
  OPCODE(1),
  /** 2: payload is a V2 field list (allows arrays); the V1 field count is then 0. */
  V2_PARAMS(2);

  final int code;

  MetadataTag(int code) {
    this.code = code;
  }
}
