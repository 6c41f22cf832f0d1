package dev.clrscope.nettrace;

import java.time.Instant;
import java.util.Arrays;
import java.util.Optional;

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

  /** The metadata as its record defines it, before V6 label overrides; what a copy must write. */
  final EventMetadata declaredMetadata;

  private final long processId;
  private final TraceThread thread;
  private final TraceThread captureThread;
  private final LabelList labels;

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
    this(
        header,
        metadata,
        metadata,
        sequenceNumber,
        threadId,
        captureThreadId,
        processorNumber,
        timestamp,
        activityId,
        relatedActivityId,
        stack,
        sorted,
        block,
        payloadStart,
        payloadLength,
        payloadStreamOffset,
        arrival,
        header.processId(),
        null,
        null,
        LabelList.EMPTY);
  }

  /**
   * The V6 form: {@code metadata} has the label overrides applied to {@code declaredMetadata};
   * {@code thread} and {@code captureThread} are the thread rows the event's indexes refer to.
   */
  TraceEvent(
      TraceHeader header,
      EventMetadata metadata,
      EventMetadata declaredMetadata,
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
      long arrival,
      long processId,
      TraceThread thread,
      TraceThread captureThread,
      LabelList labels) {
    this.declaredMetadata = declaredMetadata;
    this.processId = processId;
    this.thread = thread;
    this.captureThread = captureThread;
    this.labels = labels;
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

  /**
   * The OS process of the event's thread: from the V6 thread row when it names one, else the trace
   * header's process id.
   */
  public long processId() {
    return processId;
  }

  /** V6: the thread row of the thread the event is about; empty before V6. */
  public Optional<TraceThread> thread() {
    return Optional.ofNullable(thread);
  }

  /** V6: the thread row of the thread that wrote the event; empty before V6. */
  public Optional<TraceThread> captureThread() {
    return Optional.ofNullable(captureThread);
  }

  /**
   * V6: the event's labels (activity ids, W3C ids, key/values, metadata overrides, the latter
   * already applied to {@link #metadata()}); {@link LabelList#EMPTY} before V6, whose activity ids
   * are only in {@link #activityId()} and {@link #relatedActivityId()}.
   */
  public LabelList labels() {
    return labels;
  }

  /** The thread the event is about (V6: the OS thread id of its thread row, -1 if it has none). */
  public long threadId() {
    return threadId;
  }

  /**
   * The thread that wrote the event (-1 in netperf V3; V6: the OS thread id of its thread row, -1
   * if it has none).
   */
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

  /** The timestamp in nanoseconds of the runtime's clock ({@link TraceHeader#clockNanos}). */
  public long clockNanos() {
    return header.clockNanos(timestamp);
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

  /**
   * Like {@link #decodeSelfDescribed()}, but a payload that does not match its metadata does not
   * throw: the result holds the top-level fields decoded before the problem, then {@code
   * _undecodable} ("problem at payload offset N") and {@code _payloadHex} (the whole payload).
   * Needed because runtimes write payloads that contradict their own metadata (.NET 10 describes a
   * {@code decimal} as 16 bytes but writes an 8-byte double).
   */
  public DecodedPayload decodeSelfDescribedPartially() {
    return SelfDescribedPayloadDecoder.decodePartially(
        metadata.fields(), payload(), header.pointerSize());
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
