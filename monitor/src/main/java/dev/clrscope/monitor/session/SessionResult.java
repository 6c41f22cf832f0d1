package dev.clrscope.monitor.session;

import dev.clrscope.nettrace.NetTraceFormatException;
import dev.clrscope.nettrace.TraceHeader;
import java.io.IOException;

/**
 * How a live session ended and what it delivered.
 *
 * @param stopReason why it stopped: the first stop request, or {@link #TARGET_EXITED}
 * @param endedByItself the stream ended before any stop was asked for (the target exited, or
 *     another tool stopped the session)
 * @param abandoned the rest of the stream (the rundown) was given up
 * @param events events handed to the consumers
 * @param droppedEvents events the runtime dropped (its buffer was full), by sequence numbers
 * @param bytes bytes read from the stream
 * @param observedNanos from the start of the session to the end of the stream
 * @param header the trace header, or {@code null} if the stream ended before it
 * @param completeBytes bytes of the stream that hold whole blocks (see {@link
 *     dev.clrscope.nettrace.NetTraceReader#completeBytes()})
 * @param reachedEnd the stream's end marker was read
 * @param truncation where and why reading stopped before the end marker, or {@code null}
 * @param failure why the stream could not be read (a broken header, undecodable data), or {@code
 *     null}
 * @param streamError why reading the connection failed (rather than ended), or {@code null}
 * @param recordingError why writing the recording failed, or {@code null}
 * @param trailingBytes bytes after the stream's end marker (a saved trace something was appended
 *     to); 0 live
 */
public record SessionResult(
    String stopReason,
    boolean endedByItself,
    boolean abandoned,
    long events,
    long droppedEvents,
    long bytes,
    long observedNanos,
    TraceHeader header,
    long completeBytes,
    boolean reachedEnd,
    NetTraceFormatException truncation,
    RuntimeException failure,
    IOException streamError,
    IOException recordingError,
    long trailingBytes) {

  /** The stop reason of a saved trace read to its end. */
  public static final String END_OF_TRACE = "the end of the trace";

  /** The stop reason when the stream ended by itself. */
  public static final String TARGET_EXITED = "the target exited";
}
