package dev.clrscope.nettrace;

import static dev.clrscope.nettrace.EventHeaderFlags.*;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Writes NetTrace V4 (with V5 metadata tags where needed), the way the runtime does: compressed
 * event headers, metadata and stacks in their own blocks ahead of the events that use them, a
 * sequence point on request and at the end.
 *
 * <pre>{@code
 * try (NetTraceWriter w = NetTraceWriter.create(out, header)) {
 *   w.writeEvent(event);         // a TraceEvent read elsewhere, or
 *   w.writeEvent(metadata, ...); // synthesised fields
 * }
 * }</pre>
 *
 * Metadata is identified by its id; writing two different records under one id is an error.
 */
public final class NetTraceWriter implements AutoCloseable {
  /** Event blocks are flushed beyond this size; the runtime uses about 100 KB. */
  static final int EVENT_BLOCK_TARGET = 64 * 1024;

  private final OutputStream out;
  private final TraceHeader header;
  private long written;
  private final DefinedMetadata metadataWritten = new DefinedMetadata();
  private final GrowableBuffer pendingMetadata = new GrowableBuffer();
  private final HeaderEncoder metadataHeaders = new HeaderEncoder();
  private final IdTable<StackTrace> stacks = new IdTable<>();
  private final EventBlockBuffer events = new EventBlockBuffer();
  private final HeaderEncoder eventHeaders = new HeaderEncoder();
  private long lastTimestamp;
  private final Map<Long, Integer> lastSequenceByThread = new LinkedHashMap<>();
  private final GrowableBuffer scratch = new GrowableBuffer();
  private boolean closed;

  private NetTraceWriter(OutputStream out, TraceHeader header) {
    this.out = out;
    this.header = header;
    writeStreamHeader();
  }

  /** Starts a V4 stream; {@code header.formatVersion()} is ignored (always 4). */
  public static NetTraceWriter create(OutputStream out, TraceHeader header) {
    return new NetTraceWriter(out, header);
  }

  /** Copies an event read from another trace, keeping every header field, stack and payload. */
  public void writeEvent(TraceEvent e) {
    writeEvent(
        e.metadata(),
        e.sequenceNumber(),
        e.threadId(),
        e.captureThreadId(),
        e.processorNumber(),
        e.timestamp(),
        e.activityId(),
        e.relatedActivityId(),
        e.stack(),
        e.isSorted(),
        e.copyPayload());
  }

  /**
   * Writes one event.
   *
   * @param metadata its metadata (written once per id, before the first event using it)
   * @param sequenceNumber per-capture-thread sequence number
   * @param sorted whether the event is flagged as sorted with respect to all earlier events
   * @param payload payload bytes (copied)
   */
  public void writeEvent(
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
      byte[] payload) {
    if (metadata.metadataId() <= 0) {
      throw new IllegalArgumentException("metadata id must be positive: " + metadata.metadataId());
    }
    defineMetadata(metadata);
    int stackId = stackId(stack);
    eventHeaders.write(
        events.bytes(),
        metadata.metadataId(),
        sequenceNumber,
        captureThreadId,
        processorNumber,
        threadId,
        stackId,
        timestamp,
        activityId,
        relatedActivityId,
        sorted,
        payload.length);
    events.addPayload(payload, timestamp);
    lastTimestamp = timestamp;
    lastSequenceByThread.put(captureThreadId, sequenceNumber);
    if (events.size() >= EVENT_BLOCK_TARGET) {
      flush();
    }
  }

  /**
   * Writes a sequence point: flushes everything, records each capture thread's last sequence
   * number, and restarts stack ids.
   */
  public void writeSequencePoint(long timestamp) {
    flush();
    scratch.reset();
    scratch.i64(timestamp);
    scratch.i32(lastSequenceByThread.size());
    for (Map.Entry<Long, Integer> t : lastSequenceByThread.entrySet()) {
      scratch.i64(t.getKey());
      scratch.i32(t.getValue());
    }
    writeBlockObject(BlockKind.SEQUENCE_POINT, scratch);
    stacks.restart();
  }

  /** Writes pending metadata, stacks and events as complete blocks. */
  public void flush() {
    if (pendingMetadata.size() > 0) {
      scratch.reset();
      EventBlockBuffer.writeHeader(scratch, true, 0, 0);
      scratch.bytes(pendingMetadata.array(), 0, pendingMetadata.size());
      writeBlockObject(BlockKind.METADATA, scratch);
      pendingMetadata.reset();
      metadataHeaders.reset();
    }
    if (stacks.pendingCount() > 0) {
      scratch.reset();
      stacks.writePending(scratch, (s, b) -> encodeStack(s, header.pointerSize(), b));
      writeBlockObject(BlockKind.STACK, scratch);
    }
    if (events.size() > 0) {
      scratch.reset();
      events.drainTo(scratch, true);
      writeBlockObject(BlockKind.EVENT, scratch);
      eventHeaders.reset();
    }
    try {
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writes a final sequence point and the end-of-stream tag, then closes the stream. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    writeSequencePoint(lastTimestamp);
    raw(new byte[] {(byte) FastSerializationTag.NULL_REFERENCE.code});
    try {
      out.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void defineMetadata(EventMetadata m) {
    if (metadataWritten.isDefined(m)) {
      return;
    }
    metadataWritten.add(m);
    scratch.reset();
    MetadataEncoder.encode(m, scratch);
    metadataHeaders.write(
        pendingMetadata, 0, 0, 0, 0, 0, 0, 0, Guid.EMPTY, Guid.EMPTY, false, scratch.size());
    pendingMetadata.bytes(scratch.array(), 0, scratch.size());
  }

  private int stackId(StackTrace s) {
    return s.depth() == 0 ? 0 : stacks.id(s);
  }

  /** One stack of a stack block; V6 kept this layout. */
  static void encodeStack(StackTrace s, int pointerSize, GrowableBuffer b) {
    b.i32(s.depth() * pointerSize);
    for (int i = 0; i < s.depth(); i++) {
      if (pointerSize == 4) {
        b.i32((int) s.frame(i));
      } else {
        b.i64(s.frame(i));
      }
    }
  }

  private void writeStreamHeader() {
    GrowableBuffer b = new GrowableBuffer();
    b.bytes(BlockFraming.NETTRACE_MAGIC, 0, BlockFraming.NETTRACE_MAGIC.length);
    b.i32(BlockFraming.FAST_SERIALIZATION_SIGNATURE.length());
    byte[] sig = BlockFraming.FAST_SERIALIZATION_SIGNATURE.getBytes(StandardCharsets.US_ASCII);
    b.bytes(sig, 0, sig.length);
    b.u8(FastSerializationTag.BEGIN_PRIVATE_OBJECT.code);
    typeObject(b, "Trace", 4, 4);
    encodeClock(header, b);
    b.i32(header.processId());
    b.i32(header.processorCount());
    b.i32(header.expectedCpuSamplingRate());
    b.u8(FastSerializationTag.END_OBJECT.code);
    raw(b);
  }

  /**
   * The trace object's clock fields (sync time as a SYSTEMTIME, its QPC value, QPC frequency) and
   * pointer size; V6 kept them in this layout at the start of its trace block.
   */
  static void encodeClock(TraceHeader header, GrowableBuffer b) {
    LocalDateTime t = LocalDateTime.ofInstant(header.syncTimeUtc(), ZoneOffset.UTC);
    b.u16(t.getYear());
    b.u16(t.getMonthValue());
    b.u16(t.getDayOfWeek().getValue() % 7);
    b.u16(t.getDayOfMonth());
    b.u16(t.getHour());
    b.u16(t.getMinute());
    b.u16(t.getSecond());
    b.u16(t.getNano() / 1_000_000);
    b.i64(header.syncTimeQpc());
    b.i64(header.qpcFrequency());
    b.i32(header.pointerSize());
  }

  private static void typeObject(GrowableBuffer b, String name, int version, int minReader) {
    b.u8(FastSerializationTag.BEGIN_PRIVATE_OBJECT.code);
    b.u8(FastSerializationTag.NULL_REFERENCE.code);
    b.i32(version);
    b.i32(minReader);
    byte[] n = name.getBytes(StandardCharsets.UTF_8);
    b.i32(n.length);
    b.bytes(n, 0, n.length);
    b.u8(FastSerializationTag.END_OBJECT.code);
  }

  private void writeBlockObject(BlockKind kind, GrowableBuffer data) {
    GrowableBuffer b = new GrowableBuffer();
    b.u8(FastSerializationTag.BEGIN_PRIVATE_OBJECT.code);
    typeObject(b, kind.objectName(), 2, 2);
    b.i32(data.size());
    long at = written + b.size();
    for (int pad = (int) (-at & 3); pad > 0; pad--) {
      b.u8(0);
    }
    raw(b);
    raw(data);
    raw(new byte[] {(byte) FastSerializationTag.END_OBJECT.code});
  }

  private void raw(GrowableBuffer b) {
    try {
      out.write(b.array(), 0, b.size());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    written += b.size();
  }

  private void raw(byte[] b) {
    try {
      out.write(b);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    written += b.length;
  }

  /** V4 compressed headers: the activity part is two GUIDs, each with its own flag. */
  private static final class HeaderEncoder extends CompressedHeaderEncoder {
    private Guid activity = Guid.EMPTY;
    private Guid related = Guid.EMPTY;

    @Override
    void reset() {
      super.reset();
      activity = Guid.EMPTY;
      related = Guid.EMPTY;
    }

    void write(
        GrowableBuffer b,
        int metadataId,
        int sequence,
        long captureThreadId,
        int processor,
        long threadId,
        int stackId,
        long timestamp,
        Guid activity,
        Guid related,
        boolean sorted,
        int payloadSize) {
      int activityFlags =
          (activity.equals(this.activity) ? 0 : ACTIVITY_ID)
              | (related.equals(this.related) ? 0 : RELATED_ACTIVITY_ID);
      int flags =
          writeUpToTimestamp(
              b,
              metadataId,
              sequence,
              captureThreadId,
              processor,
              threadId,
              stackId,
              timestamp,
              activityFlags,
              sorted,
              payloadSize);
      if ((flags & ACTIVITY_ID) != 0) {
        b.guid(activity);
      }
      if ((flags & RELATED_ACTIVITY_ID) != 0) {
        b.guid(related);
      }
      this.activity = activity;
      this.related = related;
      writePayloadSize(b, flags);
    }
  }
}
