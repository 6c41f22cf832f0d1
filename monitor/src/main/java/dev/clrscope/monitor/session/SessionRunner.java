package dev.clrscope.monitor.session;

import dev.clrscope.ipc.client.DiagnosticsClient;
import dev.clrscope.ipc.session.EventPipeSession;
import dev.clrscope.nettrace.NetTraceFormatException;
import dev.clrscope.nettrace.NetTraceReader;
import dev.clrscope.nettrace.TraceEvent;
import dev.clrscope.nettrace.TraceHeader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one place that runs live EventPipe sessions: starts the session, reads its stream on a reader
 * thread with the nettrace reader, hands every event to the consumers, and ends it however it ends
 * (a stop asked through the {@link StopSwitch}: Ctrl+C, Enter, SIGTERM, a duration, a consumer that
 * saw what it waited for; or the stream ending because the target exited), draining what the
 * runtime already sent.
 *
 * <pre>{@code
 * StopSwitch stop = new StopSwitch();
 * try (SessionRunner run = SessionRunner.start(client, request, stop, consumer)) {
 *   target.release();                 // a runtime waiting at startup may run now
 *   SessionResult r = run.finish();   // blocks until stopped and drained
 * }
 * }</pre>
 *
 * <p>Stopping: StopTracing goes over a second connection and the reader keeps reading to the end of
 * the stream (the rundown), at most {@link SessionRequest#drainTimeout()}, or until {@link
 * StopSwitch#abandon} is asked; then the connection is closed and what was read stands. A stream
 * that ended by itself gets no StopTracing: its runtime may be gone.
 *
 * <p>Errors: a stream that breaks off or cannot be decoded ends the session with {@link
 * SessionResult#failure()}; a consumer that throws anything else is a bug, rethrown by {@link
 * #finish()}.
 */
public final class SessionRunner implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SessionRunner.class);

  /** What a stopping session tells its caller, for progress lines. */
  public interface StopProgress {
    /** StopTracing is about to be sent; the runtime's rundown follows. */
    default void stopping(String reason) {}

    /** The rest of the stream is being abandoned, and why. */
    default void abandoning(String why) {}
  }

  private final EventPipeSession session;
  private final SessionRequest request;
  private final StopSwitch stop;
  private final List<EventConsumer> consumers;
  private final Thread reader;
  private final CountDownLatch ended = new CountDownLatch(1);
  private final AtomicLong events = new AtomicLong();
  private final long startedNanos = System.nanoTime();
  private volatile SessionStream stream;

  // Written by the reader thread before `ended` counts down; read after it.
  private volatile long endedNanos;
  private volatile boolean endedByItself;
  private volatile long dropped;
  private volatile TraceHeader header;
  private volatile long completeBytes;
  private volatile boolean reachedEnd;
  private volatile NetTraceFormatException truncation;
  private volatile RuntimeException failure;
  private volatile RuntimeException bug;

  /** The Java heap ran out on the reader thread: rethrown on the caller's by {@link #finish}. */
  private volatile OutOfMemoryError outOfMemory;

  private volatile boolean abandoned;
  private volatile boolean stopSent;

  private SessionRunner(
      EventPipeSession session,
      SessionRequest request,
      StopSwitch stop,
      List<EventConsumer> consumers) {
    this.session = session;
    this.request = request;
    this.stop = stop;
    this.consumers = consumers;
    this.reader = new Thread(this::read, request.threadName());
    reader.setDaemon(true);
  }

  /**
   * Starts a session and its reader; the duration, if any, runs from now.
   *
   * @throws dev.clrscope.ipc.DiagnosticsException if the runtime refuses the session
   */
  public static SessionRunner start(
      DiagnosticsClient client,
      SessionRequest request,
      StopSwitch stop,
      EventConsumer... consumers) {
    EventPipeSession session = client.startEventPipeSession(request.config());
    log.debug(
        "session {} started ({} providers, {} ordering)",
        session.sessionId(),
        request.config().providers().size(),
        request.ordering());
    SessionRunner r = new SessionRunner(session, request, stop, List.of(consumers));
    if (request.beforeReading() != null) {
      try {
        request.beforeReading().run();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        session.close();
        throw new IllegalStateException("interrupted before the session was read", e);
      } catch (RuntimeException e) {
        session.close();
        throw e;
      }
    }
    stop.stopAfter(request.duration());
    r.reader.start();
    return r;
  }

  private void read() {
    SessionStream in = new SessionStream(session.stream(), request.recording());
    stream = in;
    try (NetTraceReader r =
        request.ordering() == SessionRequest.Ordering.LIVE
            ? NetTraceReader.openLive(in, true)
            : NetTraceReader.open(in, true)) {
      header = r.header();
      try {
        TraceEvent e;
        while ((e = r.next()) != null) {
          events.incrementAndGet();
          for (EventConsumer c : consumers) {
            c.accept(e);
          }
        }
      } finally {
        dropped = r.droppedEvents();
        completeBytes = r.completeBytes();
        reachedEnd = r.reachedEnd();
        truncation = r.stopReason().orElse(null);
      }
    } catch (UncheckedIOException e) {
      // The connection was closed under us (an abandoned stop) or the recording failed: what was
      // read stands, and the recording's error is reported by the result.
      log.debug("session {} stream closed: {}", session.sessionId(), e.getMessage());
    } catch (NetTraceFormatException | IllegalStateException | IllegalArgumentException e) {
      // A broken header, or a payload the analyses cannot decode.
      failure = e;
      log.debug("session {} stream failed", session.sessionId(), e);
    } catch (RuntimeException e) {
      bug = e;
    } catch (OutOfMemoryError e) {
      // What the consumers hold is let go by the caller, which says how to raise the limit.
      outOfMemory = e;
      stop.request("out of Java heap");
    } finally {
      drainRecording();
      try {
        boolean byItself = !stop.isStopRequested();
        for (EventConsumer c : consumers) {
          c.streamEnded(byItself);
        }
      } catch (RuntimeException e) {
        if (bug == null) {
          bug = e;
        }
      } finally {
        endedNanos = System.nanoTime();
        if (!stop.isStopRequested()) {
          endedByItself = true;
          stop.request(SessionResult.TARGET_EXITED);
        }
        ended.countDown();
      }
    }
  }

  /** Copies what the parser left (after a corrupt block, or past the end) into the recording. */
  private void drainRecording() {
    SessionStream in = stream;
    if (request.recording() == null || in.fileError() != null) {
      return;
    }
    try {
      in.drain();
    } catch (IOException e) {
      // Kept by the stream as its file error.
    }
  }

  /** The switch that stops this session. */
  public StopSwitch stopSwitch() {
    return stop;
  }

  /** The runtime's id of the session. */
  public long sessionId() {
    return session.sessionId();
  }

  /** Events handed out so far; safe from any thread. */
  public long eventsRead() {
    return events.get();
  }

  /** Bytes read from the stream so far; safe from any thread. */
  public long bytesRead() {
    SessionStream in = stream;
    return in == null ? 0 : in.bytes();
  }

  /** Whether the stream has ended and every event was handed out. */
  public boolean hasEnded() {
    return ended.getCount() == 0;
  }

  /** Time from the start of the session to the end of the stream, or to now. */
  public long observedNanos() {
    return (hasEnded() ? endedNanos : System.nanoTime()) - startedNanos;
  }

  /** {@link #finish(StopProgress)} without progress notes. */
  public SessionResult finish() throws InterruptedException {
    return finish(new StopProgress() {});
  }

  /**
   * Waits until a stop is asked for (or the stream ends), stops the session and reads the rest of
   * its stream, then closes it.
   *
   * @throws RuntimeException what a consumer threw that was not a data error (a bug)
   * @throws OutOfMemoryError when the consumers ran out of Java heap
   */
  public SessionResult finish(StopProgress progress) throws InterruptedException {
    while (!stop.awaitStop(Duration.ofSeconds(1))) {
      // The reader thread does the work.
    }
    if (!hasEnded()) {
      progress.stopping(stop.reason());
      log.debug("session {} stopping: {}", session.sessionId(), stop.reason());
      stopSent = true;
      boolean acknowledged = session.stop();
      if (!acknowledged && !ended.await(2, TimeUnit.SECONDS)) {
        // No answer to StopTracing and no end of stream: a runtime that is stopped (SIGSTOP) or
        // hung sends no rundown either, so waiting for one would last for ever.
        abandon(progress, "the runtime did not answer StopTracing");
      } else {
        awaitDrain(progress);
      }
    }
    close();
    SessionResult r = result();
    if (outOfMemory != null) {
      throw outOfMemory;
    }
    if (bug != null) {
      throw bug;
    }
    log.debug(
        "session {} ended ({}): {} events, {} dropped, {} bytes",
        session.sessionId(),
        r.stopReason(),
        r.events(),
        r.droppedEvents(),
        r.bytes());
    return r;
  }

  private void awaitDrain(StopProgress progress) throws InterruptedException {
    Duration limit = request.drainTimeout();
    long deadline = limit == null ? Long.MAX_VALUE : System.nanoTime() + limit.toNanos();
    while (!ended.await(50, TimeUnit.MILLISECONDS)) {
      if (stop.isAbandoned()) {
        abandon(progress, stop.abandonReason());
        return;
      }
      if (System.nanoTime() - deadline > 0) {
        abandon(progress, "it took longer than " + limit.toSeconds() + " s");
        return;
      }
    }
  }

  private void abandon(StopProgress progress, String why) throws InterruptedException {
    abandoned = true;
    log.debug("session {}: abandoning the rest of the stream: {}", session.sessionId(), why);
    progress.abandoning(why);
    // Closing the connection ends the blocked read with end-of-stream.
    session.disconnect();
    ended.await(2, TimeUnit.SECONDS);
  }

  private SessionResult result() {
    return new SessionResult(
        stop.reason(),
        endedByItself,
        abandoned,
        events.get(),
        dropped,
        bytesRead(),
        observedNanos(),
        header,
        completeBytes,
        reachedEnd,
        truncation,
        failure,
        stream == null ? null : stream.sessionError(),
        stream == null ? null : stream.fileError(),
        0);
  }

  /**
   * Ends the session without waiting: StopTracing if it was sent or the stream is still running,
   * otherwise just the connection.
   */
  @Override
  public void close() {
    if (hasEnded() && !stopSent) {
      session.disconnect();
    } else {
      session.close();
    }
  }
}
