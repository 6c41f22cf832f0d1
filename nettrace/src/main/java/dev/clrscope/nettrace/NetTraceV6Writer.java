package dev.clrscope.nettrace;

import static dev.clrscope.nettrace.EventHeaderFlags.*;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes NetTrace V6: thread rows, label lists, metadata rows and stacks in their own blocks ahead
 * of the events that use them, compressed (or, on request, uncompressed) event headers, sequence
 * points on request and at the end, and an end-of-stream block.
 *
 * <pre>
 *  "Nettrace" | u32 0 | u32 6 | u32 0 | Trace block | block* | EndOfStream block
 *  block: u32 (kind &lt;&lt; 24 | size) | size bytes
 * </pre>
 *
 * <pre>{@code
 * try (NetTraceV6Writer w = NetTraceV6Writer.create(out, header)) {
 *   w.writeEvent(event);                        // a TraceEvent read elsewhere (any version), or
 *   long t = w.defineThread(pid, tid, "main", Map.of());
 *   w.writeEvent(metadata, seq, t, t, cpu, timestamp, labels, stack, sorted, payload);
 *   w.removeThread(t);
 * }
 * }</pre>
 *
 * Metadata is identified by its id; writing two different records under one id is an error. Thread
 * indexes count up from 1 and are never reused.
 */
public final class NetTraceV6Writer implements AutoCloseable {
  /** Event blocks (and the other pending tables) are flushed beyond this size. */
  static final int BLOCK_TARGET = 64 * 1024;

  /** Largest V6 block: the block header has 24 bits of size. */
  static final int MAX_V6_BLOCK = 0xFF_FFFF;

  private final OutputStream out;
  private final TraceHeader header;
  private final boolean compressed;

  private final DefinedMetadata metadataWritten = new DefinedMetadata();
  private final GrowableBuffer pendingMetadata = new GrowableBuffer();

  private long nextThreadIndex = 1;
  private final Map<Long, Boolean> definedThreads = new HashMap<>();
  private final Map<TraceThread, Long> copiedThreads = new HashMap<>();
  private final GrowableBuffer pendingThreads = new GrowableBuffer();
  private final List<Long> pendingRemovals = new ArrayList<>();

  private final IdTable<StackTrace> stacks = new IdTable<>();
  private final IdTable<LabelList> labelLists = new IdTable<>();

  private final EventBlockBuffer events = new EventBlockBuffer();
  private final HeaderEncoder eventHeaders = new HeaderEncoder();
  private long lastTimestamp;
  private final Map<Long, Integer> lastSequenceByThread = new LinkedHashMap<>();
  private final GrowableBuffer scratch = new GrowableBuffer();
  private boolean closed;

  private NetTraceV6Writer(OutputStream out, TraceHeader header, boolean compressed) {
    this.out = out;
    this.header = header;
    this.compressed = compressed;
    writeStreamHeader();
  }

  /**
   * Starts a V6 stream with compressed event headers; {@code header.formatVersion()} is ignored.
   */
  public static NetTraceV6Writer create(OutputStream out, TraceHeader header) {
    return new NetTraceV6Writer(out, header, true);
  }

  /** Starts a V6 stream; {@code compressedHeaders} false writes fixed-size event headers. */
  public static NetTraceV6Writer create(
      OutputStream out, TraceHeader header, boolean compressedHeaders) {
    return new NetTraceV6Writer(out, header, compressedHeaders);
  }

  /**
   * Defines a thread row and returns its new index, valid until {@link #removeThread} or a sequence
   * point that flushes threads.
   *
   * @param processId OS process id, or -1 to leave it out
   * @param threadId OS thread id, or -1 to leave it out
   * @param name thread name, empty to leave it out
   * @param keyValues further descriptive items
   */
  public long defineThread(
      long processId, long threadId, String name, Map<String, String> keyValues) {
    long index = nextThreadIndex++;
    scratch.reset();
    scratch.varUInt(index);
    if (!name.isEmpty()) {
      scratch.u8(ThreadItemKind.NAME.code);
      utf8(scratch, name);
    }
    if (processId >= 0) {
      scratch.u8(ThreadItemKind.OS_PROCESS_ID.code);
      scratch.varUInt(processId);
    }
    if (threadId >= 0) {
      scratch.u8(ThreadItemKind.OS_THREAD_ID.code);
      scratch.varUInt(threadId);
    }
    for (Map.Entry<String, String> kv : keyValues.entrySet()) {
      scratch.u8(ThreadItemKind.KEY_VALUE.code);
      utf8(scratch, kv.getKey());
      utf8(scratch, kv.getValue());
    }
    pendingThreads.u16(checkU16(scratch.size(), "thread row"));
    pendingThreads.bytes(scratch.array(), 0, scratch.size());
    definedThreads.put(index, Boolean.TRUE);
    maybeFlush();
    return index;
  }

  /**
   * Ends a thread index: a remove-thread block (after the pending events) records its last sequence
   * number, and the index may not be used again.
   */
  public void removeThread(long index) {
    requireThread(index);
    definedThreads.remove(index);
    copiedThreads.values().removeIf(i -> i == index);
    pendingRemovals.add(index);
  }

  /**
   * Copies an event read from another trace (any version): header fields, thread rows (defined on
   * first use; before V6 from the process and thread ids), labels (before V6 the activity ids),
   * metadata as declared, stack and payload.
   */
  public void writeEvent(TraceEvent e) {
    long thread = copiedThread(e.thread().orElse(null), e.processId(), e.threadId());
    long capture = copiedThread(e.captureThread().orElse(null), e.processId(), e.captureThreadId());
    LabelList labels = e.labels();
    if (!e.activityId().equals(labels.activityId())
        || !e.relatedActivityId().equals(labels.relatedActivityId())) {
      labels = labels.withActivities(e.activityId(), e.relatedActivityId());
    }
    writeEvent(
        e.declaredMetadata,
        e.sequenceNumber(),
        thread,
        capture,
        e.processorNumber(),
        e.timestamp(),
        labels,
        e.stack(),
        e.isSorted(),
        e.copyPayload());
  }

  private long copiedThread(TraceThread row, long processId, long threadId) {
    // Key on the whole row so that two V6 indexes of one OS thread stay two.
    TraceThread key = row != null ? row : new TraceThread(-1, processId, threadId, "", Map.of());
    Long index = copiedThreads.get(key);
    if (index == null) {
      index = defineThread(key.processId(), key.threadId(), key.name(), key.keyValues());
      copiedThreads.put(key, index);
    }
    return index;
  }

  /**
   * Writes one event.
   *
   * @param metadata its metadata (written once per id, before the first event using it)
   * @param sequenceNumber per-capture-thread sequence number
   * @param threadIndex index (from {@link #defineThread}) of the thread the event is about
   * @param captureThreadIndex index of the thread that wrote it
   * @param labels its labels, {@link LabelList#EMPTY} for none
   * @param stack its stack, {@link StackTrace#EMPTY} for none
   * @param sorted whether the event is flagged as sorted with respect to all earlier events
   * @param payload payload bytes (copied)
   */
  public void writeEvent(
      EventMetadata metadata,
      int sequenceNumber,
      long threadIndex,
      long captureThreadIndex,
      int processorNumber,
      long timestamp,
      LabelList labels,
      StackTrace stack,
      boolean sorted,
      byte[] payload) {
    if (metadata.metadataId() <= 0) {
      throw new IllegalArgumentException("metadata id must be positive: " + metadata.metadataId());
    }
    if (payload.length > MAX_V6_BLOCK / 2) {
      throw new IllegalArgumentException("payload of " + payload.length + " bytes is too large");
    }
    requireThread(threadIndex);
    requireThread(captureThreadIndex);
    defineMetadata(metadata);
    int stackId = stackId(stack);
    int labelId = labelListId(labels);
    if (compressed) {
      eventHeaders.write(
          events.bytes(),
          metadata.metadataId(),
          sequenceNumber,
          captureThreadIndex,
          processorNumber,
          threadIndex,
          stackId,
          timestamp,
          labelId,
          sorted,
          payload.length);
    } else {
      GrowableBuffer h = events.bytes();
      h.i32(TraceParser.V6_UNCOMPRESSED_HEADER_AFTER_SIZE + payload.length);
      // Same bit as V4's "unsorted" flag, but V6 defines it as "sorted".
      h.i32(metadata.metadataId() | (sorted ? UNCOMPRESSED_UNSORTED_BIT : 0));
      h.i32(sequenceNumber);
      h.i64(threadIndex);
      h.i64(captureThreadIndex);
      h.i32(processorNumber);
      h.i32(stackId);
      h.i64(timestamp);
      h.i32(labelId);
      h.i32(payload.length);
    }
    events.addPayload(payload, timestamp);
    lastTimestamp = timestamp;
    lastSequenceByThread.put(captureThreadIndex, sequenceNumber);
    maybeFlush();
  }

  /** Writes a sequence point that keeps thread rows and metadata. */
  public void writeSequencePoint(long timestamp) {
    writeSequencePoint(timestamp, false, false);
  }

  /**
   * Writes a sequence point: flushes everything, records each live capture thread's last sequence
   * number, and restarts stack and label list ids.
   *
   * @param flushThreads also end every thread index (copied events get new rows on next use)
   * @param flushMetadata also make the reader forget all metadata (it is written again on use)
   */
  public void writeSequencePoint(long timestamp, boolean flushThreads, boolean flushMetadata) {
    flush();
    scratch.reset();
    scratch.i64(timestamp);
    scratch.i32(
        (flushThreads ? TraceParser.SEQUENCE_POINT_FLUSH_THREADS : 0)
            | (flushMetadata ? TraceParser.SEQUENCE_POINT_FLUSH_METADATA : 0));
    int countAt = scratch.size();
    scratch.i32(0);
    int count = 0;
    for (Map.Entry<Long, Integer> t : lastSequenceByThread.entrySet()) {
      if (definedThreads.containsKey(t.getKey())) {
        scratch.varUInt(t.getKey());
        scratch.varUInt(t.getValue() & 0xFFFFFFFFL);
        count++;
      }
    }
    scratch.patchI32(countAt, count);
    writeBlock(BlockKind.SEQUENCE_POINT, scratch);
    stacks.restart();
    labelLists.restart();
    if (flushThreads) {
      definedThreads.clear();
      copiedThreads.clear();
      lastSequenceByThread.clear();
    }
    if (flushMetadata) {
      metadataWritten.clear();
    }
  }

  /** Writes pending tables, events and thread removals as complete blocks. */
  public void flush() {
    if (pendingMetadata.size() > 0) {
      scratch.reset();
      scratch.u16(0); // no block header bytes
      scratch.bytes(pendingMetadata.array(), 0, pendingMetadata.size());
      writeBlock(BlockKind.METADATA, scratch);
      pendingMetadata.reset();
    }
    if (pendingThreads.size() > 0) {
      writeBlock(BlockKind.THREAD, pendingThreads);
      pendingThreads.reset();
    }
    if (stacks.pendingCount() > 0) {
      scratch.reset();
      stacks.writePending(
          scratch, (s, b) -> NetTraceWriter.encodeStack(s, header.pointerSize(), b));
      writeBlock(BlockKind.STACK, scratch);
    }
    if (labelLists.pendingCount() > 0) {
      scratch.reset();
      labelLists.writePending(scratch, NetTraceV6Writer::encodeLabels);
      writeBlock(BlockKind.LABEL_LIST, scratch);
    }
    if (events.size() > 0) {
      scratch.reset();
      events.drainTo(scratch, compressed);
      writeBlock(BlockKind.EVENT, scratch);
      eventHeaders.reset();
    }
    if (!pendingRemovals.isEmpty()) {
      scratch.reset();
      for (long index : pendingRemovals) {
        Integer last = lastSequenceByThread.remove(index);
        scratch.varUInt(index);
        scratch.varUInt(last == null ? 0 : last & 0xFFFFFFFFL);
      }
      writeBlock(BlockKind.REMOVE_THREAD, scratch);
      pendingRemovals.clear();
    }
    try {
      out.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Writes a final sequence point and the end-of-stream block, then closes the stream. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    writeSequencePoint(lastTimestamp);
    scratch.reset();
    writeBlock(BlockKind.END_OF_STREAM, scratch);
    try {
      out.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void maybeFlush() {
    if (events.size() >= BLOCK_TARGET
        || pendingMetadata.size() >= BLOCK_TARGET
        || pendingThreads.size() >= BLOCK_TARGET
        || stacks.pendingCount() >= BLOCK_TARGET / 64
        || labelLists.pendingCount() >= BLOCK_TARGET / 64) {
      flush();
    }
  }

  private void requireThread(long index) {
    if (!definedThreads.containsKey(index)) {
      throw new IllegalArgumentException("thread index " + index + " is not defined");
    }
  }

  private void defineMetadata(EventMetadata m) {
    if (metadataWritten.isDefined(m)) {
      return;
    }
    scratch.reset();
    encodeMetadata(m, scratch);
    metadataWritten.add(m);
    pendingMetadata.u16(checkU16(scratch.size(), "metadata row"));
    pendingMetadata.bytes(scratch.array(), 0, scratch.size());
  }

  private int stackId(StackTrace s) {
    return s.depth() == 0 ? 0 : stacks.id(s);
  }

  private int labelListId(LabelList l) {
    return l.isEmpty() ? 0 : labelLists.id(l);
  }

  // ---- encodings ------------------------------------------------------------------------------

  /** A metadata row without its u16 size, in the layout {@link MetadataV6Parser} reads. */
  static void encodeMetadata(EventMetadata m, GrowableBuffer b) {
    b.varUInt(m.metadataId() & 0xFFFFFFFFL);
    utf8(b, m.providerName());
    b.varUInt(m.eventId() & 0xFFFFFFFFL);
    utf8(b, m.eventName());
    fields(m.fields(), b);
    int sizeAt = b.size();
    b.u16(0);
    if (m.opcode() != 0) {
      b.u8(OptionalMetadataKind.OPCODE.code);
      b.u8(checkU8(m.opcode(), "opcode"));
    }
    if (m.keywords() != 0) {
      b.u8(OptionalMetadataKind.KEYWORDS.code);
      b.i64(m.keywords());
    }
    if (m.level() != 0) {
      b.u8(OptionalMetadataKind.LEVEL.code);
      b.u8(checkU8(m.level(), "level"));
    }
    if (m.version() != 0) {
      b.u8(OptionalMetadataKind.VERSION.code);
      b.u8(checkU8(m.version(), "version"));
    }
    MetadataAnnotations a = m.annotations();
    if (!a.messageTemplate().isEmpty()) {
      b.u8(OptionalMetadataKind.MESSAGE_TEMPLATE.code);
      utf8(b, a.messageTemplate());
    }
    if (!a.description().isEmpty()) {
      b.u8(OptionalMetadataKind.DESCRIPTION.code);
      utf8(b, a.description());
    }
    for (Map.Entry<String, String> kv : a.keyValues().entrySet()) {
      b.u8(OptionalMetadataKind.KEY_VALUE.code);
      utf8(b, kv.getKey());
      utf8(b, kv.getValue());
    }
    if (!a.providerGuid().isEmpty()) {
      b.u8(OptionalMetadataKind.PROVIDER_GUID.code);
      b.guid(a.providerGuid());
    }
    patchU16(b, sizeAt, checkU16(b.size() - sizeAt - 2, "optional metadata"));
  }

  private static void fields(List<FieldDescriptor> fields, GrowableBuffer b) {
    b.u16(checkU16(fields.size(), "field count"));
    for (FieldDescriptor f : fields) {
      int sizeAt = b.size();
      b.u16(0);
      utf8(b, f.name());
      type(f.type(), f, b);
      patchU16(b, sizeAt, checkU16(b.size() - sizeAt - 2, "field description"));
    }
  }

  private static void type(TypeCode type, FieldDescriptor f, GrowableBuffer b) {
    b.u8(type.code());
    switch (type) {
      case ARRAY:
      case FIXED_LENGTH_ARRAY:
      case REL_LOC:
      case DATA_LOC:
        if (f.elementType() == null) {
          if (type == TypeCode.REL_LOC || type == TypeCode.DATA_LOC) {
            // A V5-style location without element type: V6 needs one; bytes are as good as any.
            b.u8(TypeCode.BYTE.code());
            break;
          }
          throw new IllegalArgumentException("array field " + f.name() + " has no element type");
        }
        type(f.elementType(), f, b);
        if (type == TypeCode.FIXED_LENGTH_ARRAY) {
          b.u16(checkU16(f.fixedCount(), "fixed array length"));
        }
        break;
      case OBJECT:
        fields(f.fields(), b);
        break;
      default:
        break;
    }
  }

  /** A label list: each set label, the last one flagged. */
  static void encodeLabels(LabelList l, GrowableBuffer b) {
    int lastKindAt = -1;
    if (!l.activityId().isEmpty()) {
      lastKindAt = label(b, LabelKind.ACTIVITY_ID);
      b.guid(l.activityId());
    }
    if (!l.relatedActivityId().isEmpty()) {
      lastKindAt = label(b, LabelKind.RELATED_ACTIVITY_ID);
      b.guid(l.relatedActivityId());
    }
    if (!l.traceId().isEmpty()) {
      lastKindAt = label(b, LabelKind.TRACE_ID);
      byte[] id = traceIdBytes(l.traceId());
      b.bytes(id, 0, id.length);
    }
    if (l.spanId() != 0) {
      lastKindAt = label(b, LabelKind.SPAN_ID);
      b.i64(l.spanId());
    }
    for (Map.Entry<String, String> kv : l.stringValues().entrySet()) {
      lastKindAt = label(b, LabelKind.STRING_VALUE);
      utf8(b, kv.getKey());
      utf8(b, kv.getValue());
    }
    for (Map.Entry<String, Long> kv : l.integerValues().entrySet()) {
      lastKindAt = label(b, LabelKind.INTEGER_VALUE);
      utf8(b, kv.getKey());
      long v = kv.getValue();
      b.varUInt((v << 1) ^ (v >> 63));
    }
    if (l.opcode() != null) {
      lastKindAt = label(b, LabelKind.OPCODE);
      b.u8(checkU8(l.opcode(), "opcode"));
    }
    if (l.keywords() != null) {
      lastKindAt = label(b, LabelKind.KEYWORDS);
      b.i64(l.keywords());
    }
    if (l.level() != null) {
      lastKindAt = label(b, LabelKind.LEVEL);
      b.u8(checkU8(l.level(), "level"));
    }
    if (l.version() != null) {
      lastKindAt = label(b, LabelKind.VERSION);
      b.u8(checkU8(l.version(), "version"));
    }
    b.array()[lastKindAt] |= (byte) LabelKind.LAST_IN_LIST;
  }

  private static int label(GrowableBuffer b, LabelKind kind) {
    int at = b.size();
    b.u8(kind.code);
    return at;
  }

  private static byte[] traceIdBytes(String hex) {
    if (hex.length() != 32) {
      throw new IllegalArgumentException("trace id must be 32 hex digits: " + hex);
    }
    byte[] id = new byte[16];
    for (int i = 0; i < 16; i++) {
      id[i] = (byte) Integer.parseInt(hex.substring(2 * i, 2 * i + 2), 16);
    }
    return id;
  }

  private static void utf8(GrowableBuffer b, String s) {
    byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
    b.varUInt(bytes.length);
    b.bytes(bytes, 0, bytes.length);
  }

  private static int checkU8(int v, String what) {
    if (v < 0 || v > 0xFF) {
      throw new IllegalArgumentException(what + " " + v + " does not fit in a byte");
    }
    return v;
  }

  private static int checkU16(int v, String what) {
    if (v < 0 || v > 0xFFFF) {
      throw new IllegalArgumentException(what + " of " + v + " does not fit in 16 bits");
    }
    return v;
  }

  private static void patchU16(GrowableBuffer b, int at, int v) {
    b.array()[at] = (byte) v;
    b.array()[at + 1] = (byte) (v >>> 8);
  }

  private void writeStreamHeader() {
    GrowableBuffer b = new GrowableBuffer();
    b.bytes(BlockFraming.NETTRACE_MAGIC, 0, BlockFraming.NETTRACE_MAGIC.length);
    b.i32(0);
    b.i32(6);
    b.i32(0);
    raw(b);
    b.reset();
    NetTraceWriter.encodeClock(header, b);
    // V6 moved these V4 fields into key/values; keep them where a V4 header had them.
    Map<String, String> kv = new LinkedHashMap<>(header.keyValues());
    if (header.processorCount() != 0) {
      kv.putIfAbsent("HardwareThreadCount", Integer.toString(header.processorCount()));
    }
    if (header.processId() != 0) {
      kv.putIfAbsent("ProcessId", Integer.toString(header.processId()));
    }
    if (header.expectedCpuSamplingRate() != 0) {
      kv.putIfAbsent("ExpectedCPUSamplingRate", Integer.toString(header.expectedCpuSamplingRate()));
    }
    b.i32(kv.size());
    for (Map.Entry<String, String> e : kv.entrySet()) {
      utf8(b, e.getKey());
      utf8(b, e.getValue());
    }
    writeBlock(BlockKind.TRACE, b);
  }

  private void writeBlock(BlockKind kind, GrowableBuffer data) {
    if (data.size() > MAX_V6_BLOCK) {
      throw new IllegalStateException(kind + " block of " + data.size() + " bytes exceeds 16 MB");
    }
    GrowableBuffer h = new GrowableBuffer();
    h.i32(kind.v6Code() << 24 | data.size());
    raw(h);
    raw(data);
  }

  private void raw(GrowableBuffer b) {
    try {
      out.write(b.array(), 0, b.size());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** V6 compressed headers: the activity part is a label list id, under the activity flag. */
  private static final class HeaderEncoder extends CompressedHeaderEncoder {
    private int labelListId;

    @Override
    void reset() {
      super.reset();
      labelListId = 0;
    }

    void write(
        GrowableBuffer b,
        int metadataId,
        int sequence,
        long captureThread,
        int processor,
        long thread,
        int stackId,
        long timestamp,
        int labelListId,
        boolean sorted,
        int payloadSize) {
      int flags =
          writeUpToTimestamp(
              b,
              metadataId,
              sequence,
              captureThread,
              processor,
              thread,
              stackId,
              timestamp,
              labelListId != this.labelListId ? ACTIVITY_ID : 0,
              sorted,
              payloadSize);
      if ((flags & ACTIVITY_ID) != 0) {
        b.varUInt(labelListId & 0xFFFFFFFFL);
      }
      this.labelListId = labelListId;
      writePayloadSize(b, flags);
    }
  }
}
