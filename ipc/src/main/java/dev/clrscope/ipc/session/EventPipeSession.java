package dev.clrscope.ipc.session;

import dev.clrscope.ipc.DiagnosticsException;
import dev.clrscope.ipc.transport.IpcConnection;
import java.io.InputStream;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongConsumer;

/**
 * A running EventPipe session: the connection that started it now carries the nettrace stream.
 *
 * <p>{@link #stop()} asks the runtime to end the session on a second connection; the runtime then
 * writes the rundown and closes the stream, so a reader should keep reading {@link #stream()} to
 * its end after stopping. If the target exits, the stream simply ends.
 */
public final class EventPipeSession implements AutoCloseable {
  private final IpcConnection connection;
  private final long sessionId;
  private final LongConsumer stopper;
  private final AtomicBoolean stopped = new AtomicBoolean();

  /**
   * A session.
   *
   * @param connection the connection whose remaining bytes are the trace
   * @param sessionId the id the runtime gave the session
   * @param stopper sends StopTracing for a session id on a fresh connection
   */
  public EventPipeSession(IpcConnection connection, long sessionId, LongConsumer stopper) {
    this.connection = connection;
    this.sessionId = sessionId;
    this.stopper = stopper;
  }

  /** The runtime's id for this session. */
  public long sessionId() {
    return sessionId;
  }

  /** The nettrace byte stream; it ends when the session ends. */
  public InputStream stream() {
    return connection.inputStream();
  }

  /**
   * Asks the runtime to stop the session, once; later calls do nothing. A target that has already
   * exited counts as stopped.
   *
   * @return whether this call sent the request and the runtime acknowledged it
   */
  public boolean stop() {
    if (!stopped.compareAndSet(false, true)) {
      return false;
    }
    try {
      stopper.accept(sessionId);
      return true;
    } catch (DiagnosticsException e) {
      // The target may have exited, which ends the session just as well.
      return false;
    }
  }

  /** Whether {@link #stop()} has been called. */
  public boolean isStopRequested() {
    return stopped.get();
  }

  /**
   * Closes the connection without asking the runtime to stop: for a session whose stream already
   * ended (its runtime may be gone, and asking a vanished runtime that connected to a diagnostic
   * port would wait for a connection that never comes), or to abandon the rest of a stream (a
   * blocked read then ends).
   */
  public void disconnect() {
    connection.close();
  }

  /** Stops the session if needed, then closes the stream. */
  @Override
  public void close() {
    stop();
    connection.close();
  }
}
