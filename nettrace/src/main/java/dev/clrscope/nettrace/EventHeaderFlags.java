package dev.clrscope.nettrace;

/**
 * Flag bits of the first byte of a compressed event header (V4+). A field whose bit is clear keeps
 * its value from the previous header of the same block; each block starts from an all-zero header.
 *
 * <pre>
 *  u8 flags
 *  [varuint32 metadataId]                                        if METADATA_ID
 *  [varuint32 seqDelta, varuint64 captureThread, varuint32 proc] if CAPTURE_THREAD_AND_SEQUENCE
 *  [varuint64 threadId]                                          if THREAD_ID
 *  [varuint32 stackId]                                           if STACK_ID
 *  varuint64 timestampDelta                                      always
 *  [16 bytes activityId]         (V6: varuint32 labelListId)     if ACTIVITY_ID
 *  [16 bytes relatedActivityId]                                  if RELATED_ACTIVITY_ID
 *  [varuint32 payloadSize]                                       if DATA_LENGTH
 *  payload, unaligned
 * </pre>
 */
final class EventHeaderFlags {
  private EventHeaderFlags() {}

  /** Bit 0: a new metadata id follows. */
  static final int METADATA_ID = 1;

  /** Bit 1: sequence delta (seq = prev + delta + 1), capture thread and processor follow. */
  static final int CAPTURE_THREAD_AND_SEQUENCE = 1 << 1;

  /** Bit 2: a new thread id follows. */
  static final int THREAD_ID = 1 << 2;

  /** Bit 3: a new stack id follows. */
  static final int STACK_ID = 1 << 3;

  /** Bit 4: a new activity id (V6: label list id) follows. */
  static final int ACTIVITY_ID = 1 << 4;

  /** Bit 5: a new related activity id follows (V4/V5 only). */
  static final int RELATED_ACTIVITY_ID = 1 << 5;

  /** Bit 6: the event is sorted with respect to all earlier events in the stream. */
  static final int SORTED = 1 << 6;

  /** Bit 7: a new payload size follows. */
  static final int DATA_LENGTH = 1 << 7;

  /** Event block header flag: headers are compressed. */
  static final int BLOCK_COMPRESSED = 1;

  /** High bit of the uncompressed metadata id: set when the event is NOT sorted. */
  static final int UNCOMPRESSED_UNSORTED_BIT = 0x8000_0000;

  /** Bytes of an uncompressed V4 header after its i32 size field. */
  static final int UNCOMPRESSED_HEADER_AFTER_SIZE = 4 + 4 + 8 + 8 + 4 + 4 + 8 + 16 + 16 + 4;

  /** Bytes of a V3 header after its i32 size field, before the payload. */
  static final int V3_HEADER_AFTER_SIZE = 4 + 4 + 8 + 16 + 16 + 4;

  /** Smallest valid event/metadata block header size. */
  static final int MIN_BLOCK_HEADER_SIZE = 20;
}
