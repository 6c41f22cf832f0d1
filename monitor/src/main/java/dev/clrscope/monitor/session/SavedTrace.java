package dev.clrscope.monitor.session;

import dev.clrscope.nettrace.NetTraceFormatException;
import dev.clrscope.nettrace.NetTraceReader;
import dev.clrscope.nettrace.TraceEvent;
import dev.clrscope.nettrace.TraceHeader;
import java.io.UncheckedIOException;
import java.nio.file.Path;

/**
 * A saved trace read the way a live session is: every event handed to the consumers in one pass, in
 * the trace's order, {@link EventConsumer#streamEnded} at the end, and a {@link SessionResult} that
 * says why reading ended, how many events the runtime dropped and where a cut-off trace stops.
 * Every analysis that watches a live target reads a file through this, the one loop over a saved
 * trace's events. A truncated trace is read leniently: its complete blocks are delivered and the
 * result says where it stopped.
 */
public final class SavedTrace implements AutoCloseable {
  private final NetTraceReader reader;

  private SavedTrace(NetTraceReader reader) {
    this.reader = reader;
  }

  /**
   * Opens a trace and reads its header.
   *
   * @throws NetTraceFormatException if it is not a trace (a broken or missing header)
   * @throws UncheckedIOException if it cannot be read
   */
  public static SavedTrace open(Path file) {
    return new SavedTrace(NetTraceReader.open(file, true));
  }

  /** The trace's header: its process, clock and format. */
  public TraceHeader header() {
    return reader.header();
  }

  /**
   * Hands every event to {@code consumers}, in order, until the trace ends or {@code stop} is
   * asked; then {@link EventConsumer#streamEnded(boolean)} (not ended by itself: the target of a
   * saved trace did not die with the reading).
   *
   * @return how reading ended; {@code observedNanos} is the time from the first event to the last
   */
  public SessionResult feed(StopSwitch stop, EventConsumer... consumers) {
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;
    long events = 0;
    TraceEvent e;
    while (!stop.isStopRequested() && (e = reader.next()) != null) {
      events++;
      first = Math.min(first, e.relativeNanos());
      last = Math.max(last, e.relativeNanos());
      for (EventConsumer c : consumers) {
        c.accept(e);
      }
    }
    for (EventConsumer c : consumers) {
      c.streamEnded(false);
    }
    NetTraceFormatException truncation = reader.stopReason().orElse(null);
    return new SessionResult(
        stop.isStopRequested() ? stop.reason() : SessionResult.END_OF_TRACE,
        false,
        false,
        events,
        reader.droppedEvents(),
        reader.completeBytes(),
        first == Long.MAX_VALUE ? 0 : last - first,
        reader.header(),
        reader.completeBytes(),
        reader.reachedEnd(),
        truncation,
        null,
        null,
        null,
        reader.trailingBytes());
  }

  /** {@link #feed(StopSwitch, EventConsumer...)} to the end. */
  public SessionResult feed(EventConsumer... consumers) {
    return feed(new StopSwitch(), consumers);
  }

  @Override
  public void close() {
    reader.close();
  }
}
