package dev.clrscope.nettrace;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;

/**
 * Pull reader of nettrace (V4, V5, V6) and netperf (V3) streams.
 *
 * <pre>{@code
 * try (NetTraceReader r = NetTraceReader.open(path)) {
 *   TraceEvent e;
 *   while ((e = r.next()) != null) { ... }
 * }
 * }</pre>
 *
 * <p>Events come out in timestamp order across threads (netperf V3: file order). Memory is bounded
 * by the blocks whose events are still queued for ordering, the metadata, and the stacks of the
 * current sequence-point interval; never by the trace size.
 *
 * <p>Errors: in strict mode (the default) corrupt or truncated input makes {@link #next()} (or
 * {@code open}) throw {@link NetTraceFormatException}. In lenient mode {@link #next()} instead
 * delivers every event of every complete block before the problem, then returns null, and {@link
 * #stopReason()} tells where and why it stopped. A broken header fails {@code open} in both modes.
 *
 * <p>Live ordering ({@link #openLive(InputStream, boolean)}), for consumers of a running session
 * that want each event as soon as the runtime has flushed it: the events of each event block are
 * handed out, in timestamp order among themselves, as soon as the whole block has been read, and
 * never held back for a later block. The price is that global order is no longer guaranteed: an
 * event of a later block may be older than one already returned (the runtime writes each thread's
 * buffered events as a run, and a flush can span blocks). Each capture thread's own events still
 * come out in file order.
 */
public final class NetTraceReader implements AutoCloseable {
  private final ByteSource source;
  private final TraceParser parser;
  private final boolean lenient;
  private boolean finished;
  private NetTraceFormatException stopReason;
  private long delivered;
  private long completeBytes;
  private boolean reachedEnd;
  private long trailingBytes;

  /**
   * The parsed blocks, when a thread of its own parses ahead ({@link #parseAhead}); null when
   * {@link #next()} parses each block itself.
   */
  private final BlockingQueue<ParsedBatch> parsed;

  private final Thread parsing;

  /** The counters as of the last block {@link #next()} took, when another thread parses. */
  private long droppedSoFar;

  private long blocksSoFar;
  private long sequencePointsSoFar;

  /** Blocks parsed ahead of the reader at most: their events are what waits in memory. */
  private static final int BLOCKS_AHEAD = 8;

  private NetTraceReader(InputStream in, boolean lenient, boolean live, boolean ahead) {
    this.source = new ByteSource(in);
    this.lenient = lenient;
    try {
      this.parser = new TraceParser(BlockFraming.open(source), live);
      this.completeBytes = source.position();
    } catch (RuntimeException e) {
      source.close();
      throw e;
    }
    if (ahead) {
      parsed = new ArrayBlockingQueue<>(BLOCKS_AHEAD);
      parsing = new Thread(this::parseAhead, "clrscope-nettrace-parser");
      parsing.setDaemon(true);
      parsing.start();
    } else {
      parsed = null;
      parsing = null;
    }
  }

  /**
   * Whether a file is parsed on a thread of its own while the caller takes its events: reading,
   * framing and decoding the blocks on one core, ordering the events and whatever the caller does
   * with them on the other (a whole-file pass such as {@code trace stats} takes about half the
   * time). On one core it would only add the hand-over.
   */
  private static boolean parseAheadOfFiles() {
    return Runtime.getRuntime().availableProcessors() >= 2;
  }

  /**
   * The parsing thread: each block into a batch of its own, handed to {@link #next()} through a
   * bounded queue, up to the end of the stream or the first block that fails (that batch says why).
   */
  private void parseAhead() {
    try {
      boolean last = false;
      int expected = 16;
      while (!last) {
        ParsedBatch b = new ParsedBatch(expected);
        parser.batchInto(b);
        try {
          if (parser.readBlock()) {
            b.completeBytes = source.position();
          } else {
            b.completeBytes = source.position();
            b.reachedEnd = true;
            b.trailingBytes = source.skipToEnd();
            b.releaseAll();
          }
        } catch (NetTraceFormatException e) {
          b.formatError = e;
        } catch (RuntimeException | Error e) {
          b.failure = e;
        }
        b.droppedEvents = parser.droppedEvents();
        b.blocksRead = parser.blocksRead();
        b.sequencePoints = parser.sequencePoints();
        last = b.last();
        expected = Math.max(16, b.events.size());
        parsed.put(b);
      }
    } catch (InterruptedException e) {
      // Closed: nobody takes the blocks any more.
    }
  }

  /** Takes the next parsed block and replays it onto the orderer, as if parsed here. */
  private void takeParsed() {
    ParsedBatch b;
    try {
      b = parsed.take();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UncheckedIOException(
          new java.io.InterruptedIOException("interrupted while reading the trace"));
    }
    EventOrderer orderer = parser.orderer();
    b.replay(orderer);
    if (b.completeBytes >= 0) {
      completeBytes = b.completeBytes;
    }
    droppedSoFar = b.droppedEvents;
    blocksSoFar = b.blocksRead;
    sequencePointsSoFar = b.sequencePoints;
    if (b.failure != null) {
      finished = true;
      if (b.failure instanceof Error error) {
        throw error;
      }
      throw (RuntimeException) b.failure;
    }
    if (b.formatError != null) {
      finished = true;
      if (!lenient) {
        throw b.formatError;
      }
      stopReason = b.formatError;
      orderer.releaseAll();
      parser.logEnd();
    } else if (b.reachedEnd) {
      finished = true;
      reachedEnd = true;
      trailingBytes = b.trailingBytes;
      parser.logEnd();
    }
  }

  /** Opens a file in strict mode. */
  public static NetTraceReader open(Path path) {
    return open(path, false);
  }

  /**
   * Opens a file; {@code lenient} as described in the class comment. Only a regular file is opened
   * ({@link InputFile}): anything else is an {@link UncheckedIOException} that says what it is.
   */
  public static NetTraceReader open(Path path, boolean lenient) {
    try {
      return new NetTraceReader(
          InputFile.newInputStream(path), lenient, false, parseAheadOfFiles());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Reads from a stream (buffered internally; closed by {@link #close()}), strict mode. */
  public static NetTraceReader open(InputStream in) {
    return open(in, false);
  }

  /** Reads from a stream; {@code lenient} as described in the class comment. */
  public static NetTraceReader open(InputStream in, boolean lenient) {
    return new NetTraceReader(in, lenient, false, false);
  }

  /**
   * Reads from a stream in global order, its blocks parsed on a thread of its own ({@code open} of
   * a file does so on a machine of two cores or more): for tests, which hold it to the same events
   * and errors as the reader that parses each block itself.
   */
  static NetTraceReader openParsedAhead(InputStream in, boolean lenient) {
    return new NetTraceReader(in, lenient, false, true);
  }

  /**
   * Reads a live stream (an EventPipe session) with live ordering: {@link #next()} returns the
   * events of each block, in timestamp order among themselves, as soon as that block is complete,
   * without waiting for a later event to prove that nothing older can still arrive. The runtime
   * writes whole blocks when it flushes a session (about every 100 ms), so an event is delivered
   * about one flush after it was written.
   *
   * <p>Order is per block, not global: an event of a later block may be OLDER than one already
   * returned (another thread's run of the same flush written in the next block, or an event that
   * just missed its flush). Use this only where a consumer tolerates that, such as a live view of
   * values that each carry their own timestamp; use {@link #open(InputStream, boolean)} for global
   * timestamp order. Each capture thread's own events still come out in file order; sequence
   * points, drop counting and the end of the stream behave as in the default mode.
   *
   * @param lenient as described in the class comment
   */
  public static NetTraceReader openLive(InputStream in, boolean lenient) {
    return new NetTraceReader(in, lenient, true, false);
  }

  /** Trace-wide header (start time, clock, pointer size, process, format version). */
  public TraceHeader header() {
    return parser.header();
  }

  /**
   * The next event in timestamp order (live ordering: in timestamp order within its block), or null
   * at the end.
   *
   * @throws NetTraceFormatException in strict mode, on corrupt or truncated input
   */
  public TraceEvent next() {
    EventOrderer orderer = parser.orderer();
    while (!orderer.hasReady() && !finished) {
      if (parsed != null) {
        takeParsed();
        continue;
      }
      try {
        if (parser.readBlock()) {
          completeBytes = source.position();
        } else {
          finished = true;
          reachedEnd = true;
          completeBytes = source.position();
          // Bytes after the end marker belong to no trace: count them, so a reader can say so.
          trailingBytes = source.skipToEnd();
          parser.finish();
        }
      } catch (NetTraceFormatException e) {
        finished = true;
        if (!lenient) {
          throw e;
        }
        stopReason = e;
        parser.finish();
      }
    }
    TraceEvent e = orderer.poll();
    if (e != null) {
      delivered++;
    }
    return e;
  }

  /** Events missing according to per-thread sequence numbers, so far. */
  public long droppedEvents() {
    return parsed != null ? droppedSoFar : parser.droppedEvents();
  }

  /** Events handed out so far. */
  public long deliveredEvents() {
    return delivered;
  }

  /** Blocks read so far (all kinds). */
  public long blocksRead() {
    return parsed != null ? blocksSoFar : parser.blocksRead();
  }

  /** Sequence points read so far. */
  public long sequencePoints() {
    return parsed != null ? sequencePointsSoFar : parser.sequencePoints();
  }

  /**
   * Bytes of the stream, from its start, that hold whole objects: the headers and every block read
   * so far (with its end tag, in V3-V5). A stream cut off after this offset becomes a valid trace
   * again by truncating it here and appending {@link TraceEnding#marker(int)} (see {@link
   * TraceEnding#endAt}).
   */
  public long completeBytes() {
    return completeBytes;
  }

  /** Whether the stream's end marker has been read: the stream is whole. */
  public boolean reachedEnd() {
    return reachedEnd;
  }

  /**
   * Bytes found after the stream's end marker, which no trace holds (something appended to the
   * file, or two files joined); 0 until the end marker was read.
   */
  public long trailingBytes() {
    return trailingBytes;
  }

  /** In lenient mode: why reading stopped early, if it did. Always empty in strict mode. */
  public Optional<NetTraceFormatException> stopReason() {
    return Optional.ofNullable(stopReason);
  }

  @Override
  public void close() {
    if (parsing != null) {
      // The parsing thread stops at its next read or hand-over; what it parsed is dropped.
      parsing.interrupt();
      parsed.clear();
    }
    source.close();
  }
}
