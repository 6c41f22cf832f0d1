package dev.clrscope.nettrace;

import static dev.clrscope.nettrace.EventHeaderFlags.*;

/**
 * The events a writer has queued for its next event block, and the timestamp range that block's
 * header states. V4 to V6 share the block layout; the event headers inside are the writer's own.
 */
final class EventBlockBuffer {
  private final GrowableBuffer bytes = new GrowableBuffer();
  private long minTimestamp = Long.MAX_VALUE;
  private long maxTimestamp = Long.MIN_VALUE;

  /** Where the writer puts the next event's header, before {@link #addPayload}. */
  GrowableBuffer bytes() {
    return bytes;
  }

  /** Appends the payload of the event whose header was just written. */
  void addPayload(byte[] payload, long timestamp) {
    bytes.bytes(payload, 0, payload.length);
    minTimestamp = Math.min(minTimestamp, timestamp);
    maxTimestamp = Math.max(maxTimestamp, timestamp);
  }

  /** Bytes queued so far. */
  int size() {
    return bytes.size();
  }

  /**
   * Appends the block (header, then the queued events) to {@code b} and empties this buffer. The
   * writer must also reset its header encoder, as the reader starts each block from zeros.
   */
  void drainTo(GrowableBuffer b, boolean compressed) {
    writeHeader(b, compressed, minTimestamp, maxTimestamp);
    b.bytes(bytes.array(), 0, bytes.size());
    bytes.reset();
    minTimestamp = Long.MAX_VALUE;
    maxTimestamp = Long.MIN_VALUE;
  }

  /** The header of an event block, which V4 metadata blocks share; an empty range is written 0. */
  static void writeHeader(GrowableBuffer b, boolean compressed, long min, long max) {
    b.u16(MIN_BLOCK_HEADER_SIZE);
    b.u16(compressed ? BLOCK_COMPRESSED : 0);
    b.i64(min == Long.MAX_VALUE ? 0 : min);
    b.i64(max == Long.MIN_VALUE ? 0 : max);
  }
}
