package dev.clrscope.nettrace;

/** One-byte object framing tags of the FastSerialization container used by V3-V5. */
enum FastSerializationTag {
  /** 1: null; ends the object list, and is the "type of a type". */
  NULL_REFERENCE(1),
  /** 4: begins an object (written by netperf V3). */
  BEGIN_OBJECT(4),
  /** 5: begins an object (written by nettrace V4/V5). */
  BEGIN_PRIVATE_OBJECT(5),
  /** 6: ends an object. */
  END_OBJECT(6);

  final int code;

  FastSerializationTag(int code) {
    this.code = code;
  }

  static boolean isBegin(int tag) {
    return tag == BEGIN_OBJECT.code || tag == BEGIN_PRIVATE_OBJECT.code;
  }
}
