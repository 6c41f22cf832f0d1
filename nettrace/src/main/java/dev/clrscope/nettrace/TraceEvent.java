package dev.clrscope.nettrace;

import java.time.Instant;
import java.util.Arrays;

/**
 * One event as delivered by {@link NetTraceReader}. Immutable. The payload is not copied out of the
 * block it was read from: it stays readable for as long as the event is referenced, and {@link
 * #copyPayload()} copies it only when asked.
 */
public final class TraceEvent {
  private final TraceHeader header;
  private final EventMetadata metadata;
  private final int sequenceNumber;
  private final long threadId;
  private final long captureThreadId;
  private final int processorNumber;
  private final long timestamp;
  private final Guid activityId;
  private final Guid relatedActivityId;
  private final StackTrace stack;
  private final boolean sorted;
  private final byte[] block;
  private final int payloadStart;
  private final int payloadLength;
  private final long payloadStreamOffset;

  /** Order of arrival in the file; breaks timestamp ties so merging is deterministic. */
  final long arrival;

  TraceEvent(
      TraceHeader header,
      EventMetadata metadata,
      int sequenceNumber,
      long threadId,
      long captureThreadId,
      int processorNumber,
      long timestamp,
      Guid activityId,
      Guid relatedActivityId,
      StackTrace stack,
      boolean sorted,
      byte[] block,
      int payloadStart,
      int payloadLength,
      long payloadStreamOffset,
      long arrival) {
    this.header = header;
    this.metadata = metadata;
    this.sequenceNumber = sequenceNumber;
    this.threadId = threadId;
    this.captureThreadId = captureThreadId;
    this.processorNumber = processorNumber;
    this.timestamp = timestamp;
    this.activityId = activityId;
    this.relatedActivityId = relatedActivityId;
    this.stack = stack;
    this.sorted = sorted;
    this.block = block;
    this.payloadStart = payloadStart;
    this.payloadLength = payloadLength;
    this.payloadStreamOffset = payloadStreamOffset;
    this.arrival = arrival;
  }

  /** The trace header, for time conversion and pointer size. */
  public TraceHeader header() {
    return header;
  }

  /** The metadata record this event refers to. */
  public EventMetadata metadata() {
    return metadata;
  }

  public String providerName() {
    return metadata.providerName();
  }

  public int eventId() {
    return metadata.eventId();
  }

  /** Event name from metadata; empty for native runtime events. */
  public String eventName() {
    return metadata.eventName();
  }

  public int version() {
    return metadata.version();
  }

  /** Per-capture-thread sequence number (0 in netperf V3, which has none). */
  public int sequenceNumber() {
    return sequenceNumber;
  }

  /** The thread the event is about. */
  public long threadId() {
    return threadId;
  }

  /** The thread that wrote the event (-1 in netperf V3). */
  public long captureThreadId() {
    return captureThreadId;
  }

  /** Processor the capture thread ran on; -1 if unknown. */
  public int processorNumber() {
    return processorNumber;
  }

  /** Raw timestamp in ticks of {@link TraceHeader#qpcFrequency()}. */
  public long timestamp() {
    return timestamp;
  }

  /** Wall-clock time of the event. */
  public Instant timeUtc() {
    return header.toUtc(timestamp);
  }

  /** Nanoseconds since the trace's sync point. */
  public long relativeNanos() {
    return header.relativeNanos(timestamp);
  }

  /** Milliseconds since the trace's sync point, as TraceEvent's {@code MSec}. */
  public double relativeMillis() {
    return (timestamp - header.syncTimeQpc()) * 1000.0 / header.qpcFrequency();
  }

  public Guid activityId() {
    return activityId;
  }

  public Guid relatedActivityId() {
    return relatedActivityId;
  }

  /** The event's stack; {@link StackTrace#EMPTY} if it has none. */
  public StackTrace stack() {
    return stack;
  }

  /** True if the writer flagged this event as sorted relative to all earlier events. */
  public boolean isSorted() {
    return sorted;
  }

  /** Payload size in bytes. */
  public int payloadLength() {
    return payloadLength;
  }

  /** Absolute stream offset of the first payload byte. */
  public long payloadStreamOffset() {
    return payloadStreamOffset;
  }

  /** A fresh copy of the payload bytes. */
  public byte[] copyPayload() {
    return Arrays.copyOfRange(block, payloadStart, payloadStart + payloadLength);
  }

  /** A bounds-checked reader positioned at the first payload byte (no copy). */
  public PayloadCursor payload() {
    return new PayloadCursor(block, payloadStart, payloadLength, payloadStreamOffset);
  }

  /** Decodes the payload from the EventSource field metadata (empty map if there is none). */
  public DecodedPayload decodeSelfDescribed() {
    return SelfDescribedPayloadDecoder.decode(metadata.fields(), payload(), header.pointerSize());
  }

  @Override
  public String toString() {
    return metadata.providerName()
        + "/"
        + (metadata.eventName().isEmpty() ? "#" + metadata.eventId() : metadata.eventName())
        + " v"
        + metadata.version()
        + " ts="
        + timestamp
        + " tid="
        + threadId
        + " payload="
        + payloadLength
        + "B";
  }
}
