package dev.clrscope.nettrace;

import static dev.clrscope.nettrace.EventHeaderFlags.*;

/**
 * The header of one event blob (V4 to V6) as decoded in place, and the walk over an event block's
 * blobs that both ways of reading a trace share: {@link TraceParser} makes an event of each, the
 * unordered visit ({@link UnorderedVisit}) only counts them. Compressed headers are deltas against
 * the previous one of the same block, so one instance is reused across a block.
 */
final class EventHeader {
  int metadataId;
  int sequence;
  long captureThreadId;
  int processor;
  long threadId;
  int stackId;
  long timestamp;
  Guid activity = Guid.EMPTY;
  Guid related = Guid.EMPTY;
  boolean sorted;
  int payloadSize;

  /** V6 only; the thread ids above are then thread indexes. */
  int labelListId;

  /** Where the payload of the event last walked starts in the block's array and in the stream. */
  int payloadStart;

  long payloadStreamOffset;

  /** What a walk over an event block does with each event. */
  interface Sink {
    /**
     * An event's header, decoded and its metadata found, before its payload is checked against the
     * block (a V6 reader resolves the header's references here, so they fail first, as always).
     */
    default void header(EventHeader h, EventMetadata declared, long at) {}

    /** The event, its payload checked and skipped ({@link #payloadStart}). */
    void event(EventHeader h, EventMetadata declared);
  }

  /**
   * Walks the events of a V4+ event block: each blob's header decoded into one reused {@link
   * EventHeader}, its metadata looked up in {@code metadata}, its payload checked and skipped.
   *
   * <pre>
   *  u16 headerSize (&gt;= 20, includes itself) | u16 flags | i64 minTimestamp | i64 maxTimestamp
   *  | reserved up to headerSize | event blob*
   * </pre>
   */
  static void walkEventBlock(
      PayloadCursor c, int format, IdMap<EventMetadata> metadata, Sink sink) {
    boolean compressed = readBlockHeader(c);
    EventHeader h = new EventHeader();
    // Runs of events share their metadata: the last one found is asked first.
    int lastId = 0;
    EventMetadata declared = null;
    while (c.remaining() > 0) {
      long at = c.streamOffset();
      h.read(c, compressed, format);
      if (declared == null || h.metadataId != lastId) {
        if (h.metadataId == 0) {
          throw new NetTraceFormatException(at, "metadata record (id 0) inside an event block");
        }
        declared = metadata.get(h.metadataId);
        if (declared == null) {
          throw undefinedMetadata(h.metadataId, at);
        }
        lastId = h.metadataId;
      }
      sink.header(h, declared, at);
      c.require(h.payloadSize, "event payload");
      h.payloadStart = c.arrayPosition();
      h.payloadStreamOffset = c.streamOffset();
      c.skip(h.payloadSize, "event payload");
      if (!compressed && format < 6) {
        c.skip((int) (-c.streamOffset() & 3), "event alignment padding");
      }
      sink.event(h, declared);
    }
  }

  static NetTraceFormatException undefinedMetadata(int id, long at) {
    return new NetTraceFormatException(at, "event refers to undefined metadata id " + id);
  }

  /** Reads the common event/metadata block header; returns true if headers are compressed. */
  static boolean readBlockHeader(PayloadCursor c) {
    long at = c.streamOffset();
    int headerSize = c.readU16("block header size");
    if (headerSize < MIN_BLOCK_HEADER_SIZE) {
      throw new NetTraceFormatException(
          at, "block header size " + headerSize + " below " + MIN_BLOCK_HEADER_SIZE);
    }
    int flags = c.readU16("block flags");
    c.skip(headerSize - 4, "block header");
    return (flags & BLOCK_COMPRESSED) != 0;
  }

  /** Reads the next blob's header, compressed ones as deltas against this one. */
  void read(PayloadCursor c, boolean compressed, int format) {
    if (!compressed && format >= 6) {
      readV6Uncompressed(c);
      return;
    }
    if (!compressed) {
      long at = c.streamOffset();
      int size = c.readI32("event size");
      checkEventSize(c, at, size, UNCOMPRESSED_HEADER_AFTER_SIZE);
      sorted = !readUncompressedUpToTimestamp(c, false);
      activity = c.readGuid("activity id");
      related = c.readGuid("related activity id");
      long sizeAt = c.streamOffset();
      payloadSize = c.readI32("payload size");
      if (payloadSize < 0 || payloadSize > size - UNCOMPRESSED_HEADER_AFTER_SIZE) {
        throw new NetTraceFormatException(
            sizeAt, "payload size " + payloadSize + " exceeds event size " + size);
      }
      return;
    }
    int flags = c.readU8("compressed header flags");
    if ((flags & METADATA_ID) != 0) {
      metadataId = c.readVarUInt32("metadata id");
    }
    if ((flags & CAPTURE_THREAD_AND_SEQUENCE) != 0) {
      sequence += c.readVarUInt32("sequence delta") + 1;
      captureThreadId = c.readVarUInt64("capture thread id");
      processor = c.readVarUInt32("processor number");
    } else if (metadataId != 0) {
      sequence++;
    }
    if ((flags & THREAD_ID) != 0) {
      threadId = c.readVarUInt64("thread id");
    }
    if ((flags & STACK_ID) != 0) {
      stackId = c.readVarUInt32("stack id");
    }
    timestamp += c.readVarUInt64("timestamp delta");
    if ((flags & ACTIVITY_ID) != 0) {
      if (format >= 6) {
        labelListId = c.readVarUInt32("label list id");
      } else {
        activity = c.readGuid("activity id");
      }
    }
    if ((flags & RELATED_ACTIVITY_ID) != 0 && format < 6) {
      related = c.readGuid("related activity id");
    }
    sorted = (flags & SORTED) != 0;
    if ((flags & DATA_LENGTH) != 0) {
      long at = c.streamOffset();
      payloadSize = c.readVarUInt32("payload size");
      if (payloadSize < 0) {
        throw new NetTraceFormatException(
            at, "payload size " + (payloadSize & 0xFFFFFFFFL) + " too large");
      }
    }
  }

  /**
   * Uncompressed V6 event header: no padding, and the high bit of the metadata id is set when the
   * event IS sorted (the V6 spec's wording; V4 writers use the opposite sense).
   *
   * <pre>
   *  u32 eventSize (bytes after it) | u32 metadataId | u32 seq | u64 threadIndex
   *  | u64 captureThreadIndex | u32 processor | u32 stackId | u64 timestamp | u32 labelListId
   *  | u32 payloadSize | payload
   * </pre>
   */
  private void readV6Uncompressed(PayloadCursor c) {
    long at = c.streamOffset();
    long size = c.readU32("event size");
    checkEventSize(c, at, size, TraceParser.V6_UNCOMPRESSED_HEADER_AFTER_SIZE);
    sorted = readUncompressedUpToTimestamp(c, true);
    labelListId = c.readI32("label list id");
    long sizeAt = c.streamOffset();
    payloadSize = c.readI32("payload size");
    if (payloadSize != size - TraceParser.V6_UNCOMPRESSED_HEADER_AFTER_SIZE) {
      throw new NetTraceFormatException(
          sizeAt,
          "payload size " + (payloadSize & 0xFFFFFFFFL) + " disagrees with event size " + size);
    }
  }

  /** Rejects an event size (read at {@code at}) below {@code min} or beyond the block. */
  static void checkEventSize(PayloadCursor c, long at, long size, int min) {
    if (size < min || size > c.remaining()) {
      throw new NetTraceFormatException(
          at, "event size " + size + " outside " + min + ".." + c.remaining());
    }
  }

  /**
   * Reads the uncompressed header fields V4 and V6 share, metadata id to timestamp (V6 has thread
   * indexes where V4 has ids), and returns the metadata id's high bit, which V4 sets for an
   * unsorted event and V6 for a sorted one.
   */
  private boolean readUncompressedUpToTimestamp(PayloadCursor c, boolean v6) {
    int id = c.readI32("metadata id");
    metadataId = id & ~UNCOMPRESSED_UNSORTED_BIT;
    sequence = c.readI32("sequence number");
    threadId = c.readI64(v6 ? "thread index" : "thread id");
    captureThreadId = c.readI64(v6 ? "capture thread index" : "capture thread id");
    processor = c.readI32("processor number");
    stackId = c.readI32("stack id");
    timestamp = c.readI64("timestamp");
    return (id & UNCOMPRESSED_UNSORTED_BIT) != 0;
  }
}
