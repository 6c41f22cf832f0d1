package dev.clrscope.nettrace;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

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
 */
public final class NetTraceReader implements AutoCloseable {
  private final ByteSource source;
  private final TraceParser parser;
  private final boolean lenient;
  private boolean finished;
  private NetTraceFormatException stopReason;
  private long delivered;

  private NetTraceReader(InputStream in, boolean lenient) {
    this.source = new ByteSource(in);
    this.lenient = lenient;
    try {
      this.parser = new TraceParser(BlockFraming.open(source));
    } catch (RuntimeException e) {
      source.close();
      throw e;
    }
  }

  /** Opens a file in strict mode. */
  public static NetTraceReader open(Path path) {
    return open(path, false);
  }

  /** Opens a file; {@code lenient} as described in the class comment. */
  public static NetTraceReader open(Path path, boolean lenient) {
    try {
      return new NetTraceReader(Files.newInputStream(path), lenient);
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
    return new NetTraceReader(in, lenient);
  }

  /** Trace-wide header (start time, clock, pointer size, process, format version). */
  public TraceHeader header() {
    return parser.header();
  }

  /**
   * The next event in timestamp order, or null at the end.
   *
   * @throws NetTraceFormatException in strict mode, on corrupt or truncated input
   */
  public TraceEvent next() {
    EventOrderer orderer = parser.orderer();
    while (!orderer.hasReady() && !finished) {
      try {
        if (!parser.readBlock()) {
          finished = true;
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
    return parser.droppedEvents();
  }

  /** Events handed out so far. */
  public long deliveredEvents() {
    return delivered;
  }

  /** Blocks read so far (all kinds). */
  public long blocksRead() {
    return parser.blocksRead();
  }

  /** Sequence points read so far. */
  public long sequencePoints() {
    return parser.sequencePoints();
  }

  /** In lenient mode: why reading stopped early, if it did. Always empty in strict mode. */
  public Optional<NetTraceFormatException> stopReason() {
    return Optional.ofNullable(stopReason);
  }

  @Override
  public void close() {
    source.close();
  }
}
