package dev.clrscope.nettrace;

import static dev.clrscope.nettrace.EventHeaderFlags.*;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
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
  private final Map<Integer, EventMetadata> metadataWritten = new HashMap<>();
  private final GrowableBuffer pendingMetadata = new GrowableBuffer();
  private final HeaderEncoder metadataHeaders = new HeaderEncoder();
  private final Map<StackTrace, Integer> stackIds = new HashMap<>();
  private final List<StackTrace> pendingStacks = new ArrayList<>();
  private int nextStackId = 1;
  private int pendingStackFirstId = 1;
  private final GrowableBuffer events = new GrowableBuffer();
  private final HeaderEncoder eventHeaders = new HeaderEncoder();
  private long minTimestamp = Long.MAX_VALUE;
  private long maxTimestamp = Long.MIN_VALUE;
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
        events,
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
    events.bytes(payload, 0, payload.length);
    minTimestamp = Math.min(minTimestamp, timestamp);
    maxTimestamp = Math.max(maxTimestamp, timestamp);
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
    stackIds.clear();
    nextStackId = 1;
    pendingStackFirstId = 1;
  }

  /** Writes pending metadata, stacks and events as complete blocks. */
  public void flush() {
    if (pendingMetadata.size() > 0) {
      scratch.reset();
      blockHeader(scratch, 0, 0);
      scratch.bytes(pendingMetadata.array(), 0, pendingMetadata.size());
      writeBlockObject(BlockKind.METADATA, scratch);
      pendingMetadata.reset();
      metadataHeaders.reset();
    }
    if (!pendingStacks.isEmpty()) {
      scratch.reset();
      scratch.i32(pendingStackFirstId);
      scratch.i32(pendingStacks.size());
      for (StackTrace s : pendingStacks) {
        scratch.i32(s.depth() * header.pointerSize());
        for (int i = 0; i < s.depth(); i++) {
          if (header.pointerSize() == 4) {
            scratch.i32((int) s.frame(i));
          } else {
            scratch.i64(s.frame(i));
          }
        }
      }
      writeBlockObject(BlockKind.STACK, scratch);
      pendingStacks.clear();
      pendingStackFirstId = nextStackId;
    }
    if (events.size() > 0) {
      scratch.reset();
      blockHeader(scratch, minTimestamp, maxTimestamp);
      scratch.bytes(events.array(), 0, events.size());
      writeBlockObject(BlockKind.EVENT, scratch);
      events.reset();
      eventHeaders.reset();
      minTimestamp = Long.MAX_VALUE;
      maxTimestamp = Long.MIN_VALUE;
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
    EventMetadata known = metadataWritten.get(m.metadataId());
    if (known != null) {
      if (!known.equals(m)) {
        throw new IllegalArgumentException(
            "metadata id " + m.metadataId() + " already defined differently");
      }
      return;
    }
    metadataWritten.put(m.metadataId(), m);
    scratch.reset();
    MetadataEncoder.encode(m, scratch);
    metadataHeaders.write(
        pendingMetadata, 0, 0, 0, 0, 0, 0, 0, Guid.EMPTY, Guid.EMPTY, false, scratch.size());
    pendingMetadata.bytes(scratch.array(), 0, scratch.size());
  }

  private int stackId(StackTrace s) {
    if (s.depth() == 0) {
      return 0;
    }
    Integer id = stackIds.get(s);
    if (id == null) {
      id = nextStackId++;
      stackIds.put(s, id);
      pendingStacks.add(s);
    }
    return id;
  }

  private static void blockHeader(GrowableBuffer b, long min, long max) {
    b.u16(MIN_BLOCK_HEADER_SIZE);
    b.u16(BLOCK_COMPRESSED);
    b.i64(min == Long.MAX_VALUE ? 0 : min);
    b.i64(max == Long.MIN_VALUE ? 0 : max);
  }

  private void writeStreamHeader() {
    GrowableBuffer b = new GrowableBuffer();
    b.bytes(BlockFraming.NETTRACE_MAGIC, 0, BlockFraming.NETTRACE_MAGIC.length);
    b.i32(BlockFraming.FAST_SERIALIZATION_SIGNATURE.length());
    byte[] sig = BlockFraming.FAST_SERIALIZATION_SIGNATURE.getBytes(StandardCharsets.US_ASCII);
    b.bytes(sig, 0, sig.length);
    b.u8(FastSerializationTag.BEGIN_PRIVATE_OBJECT.code);
    typeObject(b, "Trace", 4, 4);
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
    b.i32(header.processId());
    b.i32(header.processorCount());
    b.i32(header.expectedCpuSamplingRate());
    b.u8(FastSerializationTag.END_OBJECT.code);
    raw(b);
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

  /** Compressed header encoder: writes only what differs from the previous header of the block. */
  private static final class HeaderEncoder {
    private int metadataId;
    private int sequence;
    private long captureThreadId;
    private int processor;
    private long threadId;
    private int stackId;
    private long timestamp;
    private Guid activity = Guid.EMPTY;
    private Guid related = Guid.EMPTY;
    private int payloadSize;

    void reset() {
      metadataId = 0;
      sequence = 0;
      captureThreadId = 0;
      processor = 0;
      threadId = 0;
      stackId = 0;
      timestamp = 0;
      activity = Guid.EMPTY;
      related = Guid.EMPTY;
      payloadSize = 0;
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
      int flags = 0;
      if (metadataId != this.metadataId) {
        flags |= METADATA_ID;
      }
      int implied = metadataId != 0 ? this.sequence + 1 : this.sequence;
      if (captureThreadId != this.captureThreadId
          || processor != this.processor
          || sequence != implied) {
        flags |= CAPTURE_THREAD_AND_SEQUENCE;
      }
      if (threadId != this.threadId) {
        flags |= THREAD_ID;
      }
      if (stackId != this.stackId) {
        flags |= STACK_ID;
      }
      if (!activity.equals(this.activity)) {
        flags |= ACTIVITY_ID;
      }
      if (!related.equals(this.related)) {
        flags |= RELATED_ACTIVITY_ID;
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
        b.varUInt(captureThreadId);
        b.varUInt(processor & 0xFFFFFFFFL);
      }
      if ((flags & THREAD_ID) != 0) {
        b.varUInt(threadId);
      }
      if ((flags & STACK_ID) != 0) {
        b.varUInt(stackId & 0xFFFFFFFFL);
      }
      b.varUInt(timestamp - this.timestamp);
      if ((flags & ACTIVITY_ID) != 0) {
        b.guid(activity);
      }
      if ((flags & RELATED_ACTIVITY_ID) != 0) {
        b.guid(related);
      }
      if ((flags & DATA_LENGTH) != 0) {
        b.varUInt(payloadSize);
      }
      this.metadataId = metadataId;
      this.sequence = sequence;
      this.captureThreadId = captureThreadId;
      this.processor = processor;
      this.threadId = threadId;
      this.stackId = stackId;
      this.timestamp = timestamp;
      this.activity = activity;
      this.related = related;
      this.payloadSize = payloadSize;
    }
  }
}
