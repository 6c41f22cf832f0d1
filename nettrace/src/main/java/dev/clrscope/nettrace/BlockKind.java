package dev.clrscope.nettrace;

/**
 * Kinds of top-level blocks, mirroring both spec tables: the FastSerialization type names of V3-V5
 * and the one-byte kind codes of V6 block headers.
 */
enum BlockKind {
  /** V6 kind 0: no more blocks. */
  END_OF_STREAM(0, null),
  /** V6 kind 1 / object "Trace": trace-wide header. */
  TRACE(1, "Trace"),
  /** V6 kind 2 / object "EventBlock": events (and, in V3, metadata events). */
  EVENT(2, "EventBlock"),
  /** V6 kind 3 / object "MetadataBlock": metadata records. */
  METADATA(3, "MetadataBlock"),
  /** V6 kind 4 / object "SPBlock": sequence point. */
  SEQUENCE_POINT(4, "SPBlock"),
  /** V6 kind 5 / object "StackBlock": interned stacks. */
  STACK(5, "StackBlock"),
  /** V6 kind 6: thread descriptions. */
  THREAD(6, null),
  /** V6 kind 7: threads that will not appear again. */
  REMOVE_THREAD(7, null),
  /** V6 kind 8: label lists (activity ids and other per-event labels). */
  LABEL_LIST(8, null),
  /** Anything else; skipped by size. */
  UNKNOWN(-1, null);

  private static final BlockKind[] BY_V6_CODE = {
    END_OF_STREAM, TRACE, EVENT, METADATA, SEQUENCE_POINT, STACK, THREAD, REMOVE_THREAD, LABEL_LIST
  };

  private final int v6Code;
  private final String objectName;

  BlockKind(int v6Code, String objectName) {
    this.v6Code = v6Code;
    this.objectName = objectName;
  }

  int v6Code() {
    return v6Code;
  }

  String objectName() {
    return objectName;
  }

  static BlockKind fromV6Code(int code) {
    return code >= 0 && code < BY_V6_CODE.length ? BY_V6_CODE[code] : UNKNOWN;
  }

  static BlockKind fromObjectName(String name) {
    for (BlockKind k : values()) {
      if (name.equals(k.objectName)) {
        return k;
      }
    }
    return UNKNOWN;
  }
}
