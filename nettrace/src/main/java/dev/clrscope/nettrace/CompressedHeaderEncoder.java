package dev.clrscope.nettrace;

import static dev.clrscope.nettrace.EventHeaderFlags.*;

/**
 * Writes compressed event headers (V4 to V6): a flag byte naming the fields that differ from the
 * previous header of the block, then only those fields (see {@link EventHeaderFlags}).
 *
 * <p>This class keeps the fields every version shares. The activity part, which comes between the
 * timestamp and the payload size, is two GUIDs before V6 and a label list id in V6, so subclasses
 * write it: {@link #writeUpToTimestamp}, then their activity fields, then {@link
 * #writePayloadSize}.
 */
abstract class CompressedHeaderEncoder {
  private int metadataId;
  private int sequence;
  private long captureThread;
  private int processor;
  private long thread;
  private int stackId;
  private long timestamp;
  private int payloadSize;

  /** Forgets the previous header, as the reader does at the start of each block. */
  void reset() {
    metadataId = 0;
    sequence = 0;
    captureThread = 0;
    processor = 0;
    thread = 0;
    stackId = 0;
    timestamp = 0;
    payloadSize = 0;
  }

  /**
   * Writes the flag byte and the fields up to the timestamp delta, and takes the new values as the
   * previous header.
   *
   * @param activityFlags {@link EventHeaderFlags#ACTIVITY_ID} and {@link
   *     EventHeaderFlags#RELATED_ACTIVITY_ID} as the subclass found them
   * @return the flags written, for the subclass's activity fields and {@link #writePayloadSize}
   */
  final int writeUpToTimestamp(
      GrowableBuffer b,
      int metadataId,
      int sequence,
      long captureThread,
      int processor,
      long thread,
      int stackId,
      long timestamp,
      int activityFlags,
      boolean sorted,
      int payloadSize) {
    int flags = activityFlags;
    if (metadataId != this.metadataId) {
      flags |= METADATA_ID;
    }
    // The reader advances the sequence by itself only for events (metadata id 0 marks a V4 metadata
    // record), so anything else has to be written out.
    int implied = metadataId != 0 ? this.sequence + 1 : this.sequence;
    if (captureThread != this.captureThread || processor != this.processor || sequence != implied) {
      flags |= CAPTURE_THREAD_AND_SEQUENCE;
    }
    if (thread != this.thread) {
      flags |= THREAD_ID;
    }
    if (stackId != this.stackId) {
      flags |= STACK_ID;
    }
    if (sorted) {
      flags |= SORTED;
    }
    if (payloadSize != this.payloadSize) {
      flags |= DATA_LENGTH;
    }
    b.u8(flags);
    if ((flags & METADATA_ID) != 0) {
      b.varUInt(metadataId & 0xFFFFFFFFL);
    }
    if ((flags & CAPTURE_THREAD_AND_SEQUENCE) != 0) {
      b.varUInt((sequence - this.sequence - 1) & 0xFFFFFFFFL);
      b.varUInt(captureThread);
      b.varUInt(processor & 0xFFFFFFFFL);
    }
    if ((flags & THREAD_ID) != 0) {
      b.varUInt(thread);
    }
    if ((flags & STACK_ID) != 0) {
      b.varUInt(stackId & 0xFFFFFFFFL);
    }
    b.varUInt(timestamp - this.timestamp);
    this.metadataId = metadataId;
    this.sequence = sequence;
    this.captureThread = captureThread;
    this.processor = processor;
    this.thread = thread;
    this.stackId = stackId;
    this.timestamp = timestamp;
    this.payloadSize = payloadSize;
    return flags;
  }

  /**
   * Writes the payload size if {@code flags} (from {@link #writeUpToTimestamp}) says it changed.
   */
  final void writePayloadSize(GrowableBuffer b, int flags) {
    if ((flags & DATA_LENGTH) != 0) {
      b.varUInt(payloadSize);
    }
  }
}
