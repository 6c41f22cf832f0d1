package dev.clrscope.nettrace;

import static dev.clrscope.nettrace.EventHeaderFlags.*;

import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The block and event layers: turns framed blocks into metadata, stacks, thread checkpoints and
 * events, and feeds the events to the {@link EventOrderer}. A block's events are committed only
 * once the whole block parsed, so a failure never delivers half a block.
 */
final class TraceParser {
  private static final Logger log = LoggerFactory.getLogger(TraceParser.class);

  /** V6 sequence point flag: forget all thread rows after the point. */
  static final int SEQUENCE_POINT_FLUSH_THREADS = 1;

  /** V6 sequence point flag: forget all metadata after the point. */
  static final int SEQUENCE_POINT_FLUSH_METADATA = 2;

  /** Bytes of an uncompressed V6 header after its u32 size field. */
  static final int V6_UNCOMPRESSED_HEADER_AFTER_SIZE = 4 + 4 + 8 + 8 + 4 + 4 + 8 + 4 + 4;

  private final BlockFraming framing;
  private final TraceHeader header;
  private final int format;
  private IdMap<EventMetadata> metadata = new IdMap<>();

  /**
   * Whether {@link #metadata} was handed to another thread with an event block (the unordered
   * visit): it is then copied before it changes, so that block is decoded against the metadata that
   * preceded it in the file.
   */
  private boolean metadataShared;

  /** Where event blocks go undecoded, in the unordered visit; null: the parser decodes them. */
  private EventBlockHandler eventBlocks;

  private final IdMap<StackTrace> stacks = new IdMap<>();
  private final IdMap<Sequence> threads = new IdMap<>();
  private final EventOrderer orderer;
  private final boolean live;

  /**
   * Where events and releases go when the parser runs ahead on a thread of its own: the reading
   * thread replays them onto {@link #orderer}; null when the parser feeds the orderer itself.
   */
  private ParsedBatch batch;

  private final V6Tables v6 = new V6Tables();
  private final List<TraceEvent> blockEvents = new ArrayList<>();
  private final List<CaptureThread> blockThreads = new ArrayList<>();
  private Sequence lastThread;

  /**
   * The parser's own state of a capture thread: the last sequence number, for counting drops; apart
   * from the orderer's {@link CaptureThread}, which another thread updates when the parser runs
   * ahead (one object written by both cores for every event took a third of a pass).
   */
  private static final class Sequence {
    final CaptureThread ordered;
    int last;

    Sequence(CaptureThread ordered, int last) {
      this.ordered = ordered;
      this.last = last;
    }
  }

  /**
   * Takes the event blocks of a V4/V5 trace undecoded, for the unordered visit ({@link
   * UnorderedVisit}): every other block is still parsed here, in file order.
   */
  interface EventBlockHandler {
    /** The array the next event block is read into (its length may exceed it), or null. */
    byte[] nextBuffer();

    /** An event block, with the metadata its events refer to (not to be changed). */
    void eventBlock(RawBlock block, IdMap<EventMetadata> metadata);

    /**
     * A sequence point follows: every event block handed over before it must have had its sequence
     * numbers folded in ({@link #foldSequences}) before its checkpoints are checked.
     */
    void beforeCheckpoint();
  }

  private long droppedEvents;
  private long arrival;
  private long blocksRead;
  private long sequencePoints;
  private long droppedReported;

  /**
   * A parser over {@code framing}; {@code live} releases every event block's events, merged by
   * timestamp, as soon as the block is parsed (see {@link NetTraceReader#openLive}).
   */
  TraceParser(BlockFraming framing, boolean live) {
    this.framing = framing;
    this.orderer = new EventOrderer(live);
    this.live = live;
    this.header = framing.header();
    this.format = framing.formatVersion();
  }

  TraceHeader header() {
    return header;
  }

  EventOrderer orderer() {
    return orderer;
  }

  /**
   * Sends what the following blocks give to {@code into} instead of the orderer (the parser then
   * runs on a thread that is not the orderer's).
   */
  void batchInto(ParsedBatch into) {
    batch = into;
  }

  private void releaseAll() {
    if (batch != null) {
      batch.releaseAll();
    } else {
      orderer.releaseAll();
    }
  }

  long droppedEvents() {
    return droppedEvents;
  }

  long blocksRead() {
    return blocksRead;
  }

  long sequencePoints() {
    return sequencePoints;
  }

  /**
   * Hands the event blocks of a V4/V5 trace to {@code handler} instead of decoding them; returns
   * false (and changes nothing) for a format whose event blocks need the parser's state as it
   * stands at each event (netperf V3 defines metadata inside them, V6 resolves threads and labels).
   */
  boolean handOverEventBlocks(EventBlockHandler handler) {
    if (format != 4 && format != 5) {
      return false;
    }
    eventBlocks = handler;
    return true;
  }

  /**
   * Folds in the sequence numbers of an event block that was handed over, as if this parser had
   * decoded it here: called in file order.
   */
  void foldSequences(BlockSequences s) {
    for (int i = 0; i < s.size(); i++) {
      Sequence t = thread(s.thread(i), s.first(i));
      checkSequence(t, s.first(i));
      droppedEvents += s.missingWithin(i);
      t.last = s.last(i);
    }
  }

  /** The metadata, to be changed: copied first if an event block handed over still uses it. */
  private IdMap<EventMetadata> ownMetadata() {
    if (metadataShared) {
      metadata = metadata.copy();
      metadataShared = false;
    }
    return metadata;
  }

  /** Parses one block. Returns false at the end of the stream. */
  boolean readBlock() {
    try {
      return parseNextBlock();
    } catch (NetTraceFormatException e) {
      // The reader throws it (strict) or stops there (lenient): either way reading ends here.
      log.debug("reading stopped after {} blocks: {}", blocksRead, e.getMessage());
      throw e;
    }
  }

  private boolean parseNextBlock() {
    RawBlock b = eventBlocks == null ? framing.next(true) : framing.next(eventBlocks.nextBuffer());
    if (b == null) {
      return false;
    }
    blocksRead++;
    switch (b.kind()) {
      case EVENT:
        if (eventBlocks != null) {
          metadataShared = true;
          eventBlocks.eventBlock(b, metadata);
        } else {
          parseEventBlockAtomically(b);
        }
        break;
      case METADATA:
        parseMetadataBlock(b);
        break;
      case STACK:
        parseStackBlock(b);
        break;
      case SEQUENCE_POINT:
        if (format >= 6) {
          parseV6SequencePoint(b);
        } else {
          parseSequencePoint(b);
        }
        break;
      case THREAD:
        v6.parseThreadBlock(b.cursor());
        break;
      case REMOVE_THREAD:
        parseRemoveThreadBlock(b);
        break;
      case LABEL_LIST:
        v6.parseLabelListBlock(b.cursor());
        break;
      default:
        // Unknown kinds are skipped by size: forward compatibility is the point of the framing.
        break;
    }
    return true;
  }

  /** Releases all queued events and says what the trace held; call at the end of the stream. */
  void finish() {
    releaseAll();
    logEnd();
  }

  /**
   * Says what the trace held, once it has ended; when the parser ran ahead, the thread that takes
   * the events says it after the parsing thread's last block (a log reads as one reader's).
   */
  void logEnd() {
    log.debug(
        "end of the trace: {} blocks, {} sequence points, {} event metadata, {} events dropped",
        blocksRead,
        sequencePoints,
        metadata.size(),
        droppedEvents);
  }

  /** After a sequence point's checks: says how many events were found missing since the last. */
  private void reportDrops() {
    if (droppedEvents != droppedReported) {
      log.debug(
          "sequence point {}: {} events dropped since the last ({} in all)",
          sequencePoints,
          droppedEvents - droppedReported,
          droppedEvents);
      droppedReported = droppedEvents;
    }
  }

  private Sequence thread(long id, int sequence) {
    Sequence t = lastThread;
    if (t != null && t.ordered.id == id) {
      return t;
    }
    t = threads.get(id);
    if (t == null) {
      t = new Sequence(new CaptureThread(id), sequence - 1);
      threads.put(id, t);
    }
    lastThread = t;
    return t;
  }

  /**
   * Counts events missing before {@code sequence}. Before V6 a thread whose last number was 0 is
   * taken as a recycled thread id rather than a gap, as TraceEvent does; V6 thread indexes are
   * never recycled.
   */
  private void checkSequence(Sequence t, int sequence) {
    droppedEvents += missing(t.last, sequence, format);
    t.last = sequence;
  }

  /**
   * Events missing between a thread's sequence number {@code last} and its next, {@code sequence}.
   */
  static int missing(int last, int sequence, int format) {
    int expected = last + 1;
    if (sequence != expected && (last != 0 || format >= 6)) {
      int gap = sequence - expected;
      if (gap > 0) {
        return gap;
      }
    }
    return 0;
  }

  private EventMetadata lookupMetadata(int id, long at) {
    EventMetadata m = metadata.get(id);
    if (m == null) {
      throw EventHeader.undefinedMetadata(id, at);
    }
    return m;
  }

  /** Parses an event block, delivering its events only once all of the block parsed. */
  private void parseEventBlockAtomically(RawBlock b) {
    blockEvents.clear();
    blockThreads.clear();
    try {
      if (format == 3) {
        parseV3EventBlock(b);
      } else {
        parseEventBlock(b);
      }
    } catch (NetTraceFormatException e) {
      blockEvents.clear();
      blockThreads.clear();
      throw e;
    }
    commitBlock();
  }

  private void commitBlock() {
    if (batch != null) {
      batch.addAll(blockEvents, blockThreads);
    } else {
      for (int i = 0; i < blockEvents.size(); i++) {
        CaptureThread t = blockThreads.get(i);
        if (t == null) {
          orderer.addInFileOrder(blockEvents.get(i));
        } else {
          orderer.add(t, blockEvents.get(i));
        }
      }
    }
    blockEvents.clear();
    blockThreads.clear();
    if (live) {
      // Live ordering: the block is complete, so nothing of it waits for a later block.
      releaseAll();
    }
  }

  // ---- V4+ event and metadata blocks -------------------------------------------------------

  /** Event block (V4+): an event of each blob ({@link EventHeader#walkEventBlock}). */
  private void parseEventBlock(RawBlock b) {
    EventHeader.walkEventBlock(b.cursor(), format, metadata, new EventMaker(b));
  }

  /** Makes the events of one V4+ event block, with their V6 references resolved. */
  private final class EventMaker implements EventHeader.Sink {
    private final RawBlock block;
    private EventMetadata m;
    private long threadId;
    private long captureThreadId;
    private Guid activity;
    private Guid related;
    private long processId;
    private TraceThread thread;
    private TraceThread captureThread;
    private LabelList labels;

    EventMaker(RawBlock block) {
      this.block = block;
    }

    @Override
    public void header(EventHeader s, EventMetadata declared, long at) {
      m = declared;
      threadId = s.threadId;
      captureThreadId = s.captureThreadId;
      activity = s.activity;
      related = s.related;
      processId = header.processId();
      thread = null;
      captureThread = null;
      labels = LabelList.EMPTY;
      if (format >= 6) {
        // V6 headers hold thread indexes and a label list id: resolve them to what V4 holds inline.
        thread = v6.thread(s.threadId, at);
        captureThread = v6.thread(s.captureThreadId, at);
        labels = v6.labels(s.labelListId, at);
        m = labels.applyTo(declared);
        threadId = thread.threadId();
        captureThreadId = captureThread.threadId();
        activity = labels.activityId();
        related = labels.relatedActivityId();
        if (thread.processId() >= 0) {
          processId = thread.processId();
        }
      }
    }

    @Override
    public void event(EventHeader s, EventMetadata declared) {
      // V6: the capture thread index keys the sequence numbers, as the OS thread id does before.
      Sequence t = thread(s.captureThreadId, s.sequence);
      checkSequence(t, s.sequence);
      StackTrace stack = s.stackId == 0 ? StackTrace.EMPTY : stackOrEmpty(s.stackId);
      blockEvents.add(
          new TraceEvent(
              header,
              m,
              declared,
              s.sequence,
              threadId,
              captureThreadId,
              s.processor,
              s.timestamp,
              activity,
              related,
              stack,
              s.sorted,
              block.data(),
              s.payloadStart,
              s.payloadSize,
              s.payloadStreamOffset,
              arrival++,
              processId,
              thread,
              captureThread,
              labels));
      blockThreads.add(t.ordered);
    }
  }

  /** Stack {@code id}, or no stack when undefined (as before: a stack block may be missing). */
  private StackTrace stackOrEmpty(int id) {
    StackTrace t = stacks.get(id);
    return t == null ? StackTrace.EMPTY : t;
  }

  /** Metadata block: same layout as an event block; each blob's payload is a metadata record. */
  private void parseMetadataBlock(RawBlock b) {
    PayloadCursor c = b.cursor();
    if (format >= 6) {
      parseV6MetadataBlock(c);
      return;
    }
    boolean compressed = EventHeader.readBlockHeader(c);
    EventHeader s = new EventHeader();
    while (c.remaining() > 0) {
      s.read(c, compressed, format);
      PayloadCursor record = c.slice(s.payloadSize, "metadata record");
      if (!compressed) {
        c.skip((int) (-c.streamOffset() & 3), "metadata alignment padding");
      }
      EventMetadata m = MetadataParser.parse(record);
      ownMetadata().put(m.metadataId(), m);
    }
  }

  /**
   * V6 metadata block.
   *
   * <pre>
   *  u16 headerSize (excludes itself) | headerSize bytes | ( u16 rowSize | row )*
   * </pre>
   */
  private void parseV6MetadataBlock(PayloadCursor c) {
    int headerSize = c.readU16("metadata block header size");
    c.skip(headerSize, "metadata block header");
    while (c.remaining() > 0) {
      int size = c.readU16("metadata row size");
      EventMetadata m = MetadataV6Parser.parse(c.slice(size, "metadata row"));
      if (m.metadataId() == 0) {
        throw new NetTraceFormatException(
            c.streamOffset() - size, "metadata row with id 0 (ids start at 1)");
      }
      ownMetadata().put(m.metadataId(), m);
    }
  }

  // ---- stacks and sequence points -----------------------------------------------------------

  /**
   * Stack block.
   *
   * <pre>
   *  u32 firstId | u32 count | count x ( u32 byteSize | byteSize/pointerSize pointers )
   * </pre>
   */
  private void parseStackBlock(RawBlock b) {
    PayloadCursor c = b.cursor();
    int firstId = c.readI32("first stack id");
    long countAt = c.streamOffset();
    int count = c.readI32("stack count");
    checkCount(c, countAt, count, 4, "stack count");
    int ptr = header.pointerSize();
    for (int i = 0; i < count; i++) {
      long sizeAt = c.streamOffset();
      int size = c.readI32("stack size");
      if (size < 0 || size > c.remaining()) {
        throw new NetTraceFormatException(
            sizeAt, "stack size " + size + " outside 0.." + c.remaining());
      }
      long[] ips = readPointers(c, size);
      c.skip(size % ptr, "stack tail");
      stacks.put(firstId + i, StackTrace.wrap(ips));
    }
  }

  /** The whole pointers in {@code bytes} bytes of a stack; a partial one is left unread. */
  private long[] readPointers(PayloadCursor c, int bytes) {
    int ptr = header.pointerSize();
    long[] ips = new long[bytes / ptr];
    for (int k = 0; k < ips.length; k++) {
      ips[k] = c.readPointer(ptr, "instruction pointer");
    }
    return ips;
  }

  /**
   * Sequence point (V4/V5).
   *
   * <pre>
   *  i64 timestamp | i32 threadCount | threadCount x ( i64 captureThreadId | i32 sequenceNumber )
   * </pre>
   *
   * Every event before it precedes every event after it, stack ids restart after it, and each
   * listed thread's sequence number is a checkpoint for dropped-event counting.
   */
  private void parseSequencePoint(RawBlock b) {
    PayloadCursor c = b.cursor();
    c.readI64("sequence point timestamp");
    long countAt = c.streamOffset();
    int count = c.readI32("sequence point thread count");
    checkCount(c, countAt, count, 12, "thread count");
    if (eventBlocks != null) {
      eventBlocks.beforeCheckpoint();
    }
    startSequencePoint();
    for (int i = 0; i < count; i++) {
      long id = c.readI64("thread id");
      int seq = c.readI32("sequence number");
      checkSequence(thread(id, seq), seq);
    }
    reportDrops();
  }

  /**
   * Sequence point (V6).
   *
   * <pre>
   *  u64 timestamp | u32 flags | u32 threadCount | threadCount x ( varuint64 captureThreadIndex
   *  | varuint32 sequenceNumber )
   *  flags: 1 = then forget all thread rows, 2 = then forget all metadata
   * </pre>
   */
  private void parseV6SequencePoint(RawBlock b) {
    PayloadCursor c = b.cursor();
    c.readI64("sequence point timestamp");
    int flags = c.readI32("sequence point flags");
    long countAt = c.streamOffset();
    long count = c.readU32("sequence point thread count");
    // Each entry takes at least 2 bytes (two one-byte varuints).
    checkCount(c, countAt, count, 2, "thread count");
    startSequencePoint();
    v6.clearLabelLists();
    for (long i = 0; i < count; i++) {
      readThreadCheckpoint(c, "sequence number");
    }
    reportDrops();
    // The spec orders the flushes after the sequence checks, so drops are still counted.
    if ((flags & SEQUENCE_POINT_FLUSH_THREADS) != 0) {
      v6.clearThreads();
      threads.clear();
      lastThread = null;
    }
    if ((flags & SEQUENCE_POINT_FLUSH_METADATA) != 0) {
      ownMetadata().clear();
    }
  }

  /**
   * Rejects a count (read at {@code at}) of entries of at least {@code bytesEach} that overruns.
   */
  private static void checkCount(PayloadCursor c, long at, long count, int bytesEach, String what) {
    if (count < 0 || count * bytesEach > c.remaining()) {
      throw new NetTraceFormatException(
          at, what + " " + count + " does not fit in " + c.remaining() + " bytes");
    }
  }

  /** Every event before a sequence point precedes every event after it; stack ids restart. */
  private void startSequencePoint() {
    releaseAll();
    stacks.clear();
    sequencePoints++;
  }

  /**
   * Reads a V6 thread index and sequence number (of a sequence point or remove-thread block) and
   * checks the sequence for drops; returns the index.
   */
  private long readThreadCheckpoint(PayloadCursor c, String sequenceWhat) {
    long at = c.streamOffset();
    long index = c.readVarUInt64("thread index");
    int seq = c.readVarUInt32(sequenceWhat);
    v6.thread(index, at);
    checkSequence(thread(index, seq), seq);
    return index;
  }

  /**
   * Remove-thread block: threads that will not be referred to again, with their final sequence
   * numbers (a last drop check).
   *
   * <pre>
   *  ( varuint64 threadIndex | varuint32 finalSequenceNumber )*
   * </pre>
   */
  private void parseRemoveThreadBlock(RawBlock b) {
    PayloadCursor c = b.cursor();
    while (c.remaining() > 0) {
      long index = readThreadCheckpoint(c, "final sequence number");
      v6.removeThread(index);
      threads.remove(index);
      lastThread = null;
    }
  }

  // ---- netperf V3 -----------------------------------------------------------------------------

  /**
   * Event block of netperf V3: events (and metadata events, id 0) with inline stacks.
   *
   * <pre>
   *  i32 eventSize (bytes after this field) | i32 metadataId | i32 threadId | i64 timestamp
   *  | Guid activityId | Guid relatedActivityId | i32 payloadSize | payload
   *  | i32 stackSize | stackSize bytes of pointers
   * </pre>
   */
  private void parseV3EventBlock(RawBlock b) {
    PayloadCursor c = b.cursor();
    while (c.remaining() > 0) {
      long at = c.streamOffset();
      int size = c.readI32("event size");
      EventHeader.checkEventSize(c, at, size, V3_HEADER_AFTER_SIZE + 4);
      PayloadCursor e = c.slice(size, "event");
      int metadataId = e.readI32("metadata id");
      int threadId = e.readI32("thread id");
      long timestamp = e.readI64("timestamp");
      Guid activity = e.readGuid("activity id");
      Guid related = e.readGuid("related activity id");
      int payloadSize = e.readI32("payload size");
      if (payloadSize < 0 || payloadSize > e.remaining() - 4) {
        throw new NetTraceFormatException(
            e.streamOffset() - 4, "payload size " + payloadSize + " exceeds event size " + size);
      }
      int start = e.arrayPosition();
      long payloadAt = e.streamOffset();
      PayloadCursor payload = e.slice(payloadSize, "event payload");
      int stackSize = e.readI32("stack size");
      if (stackSize < 0 || stackSize > e.remaining()) {
        throw new NetTraceFormatException(
            e.streamOffset() - 4, "stack size " + stackSize + " exceeds the event");
      }
      long[] ips = readPointers(e, stackSize);
      if (metadataId == 0) {
        EventMetadata m = MetadataParser.parse(payload);
        ownMetadata().put(m.metadataId(), m);
        continue;
      }
      EventMetadata m = lookupMetadata(metadataId, at);
      blockEvents.add(
          new TraceEvent(
              header,
              m,
              0,
              threadId,
              -1,
              -1,
              timestamp,
              activity,
              related,
              StackTrace.wrap(ips),
              true,
              b.data(),
              start,
              payloadSize,
              payloadAt,
              arrival++));
      blockThreads.add(null);
    }
  }
}
