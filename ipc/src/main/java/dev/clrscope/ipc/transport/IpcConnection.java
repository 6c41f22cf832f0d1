package dev.clrscope.ipc.transport;

import dev.clrscope.ipc.ConnectionClosedException;
import dev.clrscope.ipc.IpcTimeoutException;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One open connection to a diagnostic server, carrying one request and its reply (or, for a
 * session, the event stream that follows the reply).
 *
 * <p>Blocking reads cannot time out on a Unix domain socket channel or a named pipe handle, so a
 * deadline is enforced from outside: a shared timer aborts the connection when it passes, the
 * blocked read fails, and the failure is reported as an {@link IpcTimeoutException}.
 */
public abstract class IpcConnection implements Closeable {
  private static final Logger log = LoggerFactory.getLogger(IpcConnection.class);

  private static final ScheduledExecutorService TIMER =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "clrscope-ipc-deadline");
            t.setDaemon(true);
            return t;
          });

  private final String description;
  private volatile ScheduledFuture<?> deadline;
  private volatile boolean timedOut;
  private volatile String awaiting = "a reply";

  /** A connection described as {@code description} in messages. */
  protected IpcConnection(String description) {
    this.description = description;
  }

  /** Reads up to {@code len} bytes; -1 at the end of the stream. */
  protected abstract int readRaw(byte[] buffer, int offset, int len) throws IOException;

  /** Writes all of the bytes. */
  protected abstract void writeRaw(byte[] buffer, int offset, int len) throws IOException;

  /** Breaks the connection so that blocked reads and writes return at once. */
  protected abstract void abort();

  /** What this connection is connected to. */
  public String description() {
    return description;
  }

  /**
   * Arms a deadline for whatever is read or written next; {@code null} disarms it.
   *
   * @param timeout how long from now
   * @param what what is awaited, for the message (such as "the reply to ProcessInfo")
   */
  public void setDeadline(Duration timeout, String what) {
    clearDeadline();
    if (timeout != null) {
      awaiting = what;
      deadline =
          TIMER.schedule(
              () -> {
                timedOut = true;
                log.debug(
                    "waited {} ms for {} from {}: aborting the connection",
                    timeout.toMillis(),
                    what,
                    description);
                abort();
              },
              timeout.toMillis(),
              TimeUnit.MILLISECONDS);
    }
  }

  /** Disarms the deadline, if any. */
  public void clearDeadline() {
    ScheduledFuture<?> d = deadline;
    if (d != null) {
      d.cancel(false);
      deadline = null;
    }
  }

  /** Writes a whole message. */
  public void write(byte[] message) {
    try {
      writeRaw(message, 0, message.length);
    } catch (IOException e) {
      throw failure("while sending a request", e);
    }
  }

  /**
   * Reads exactly {@code buffer.length} bytes.
   *
   * @throws ConnectionClosedException if the peer closes first
   * @throws IpcTimeoutException if the deadline passes first
   */
  public void readFully(byte[] buffer, String what) {
    int done = 0;
    while (done < buffer.length) {
      int n;
      try {
        n = readRaw(buffer, done, buffer.length - done);
      } catch (IOException e) {
        throw failure("while reading " + what, e);
      }
      if (n < 0) {
        if (timedOut) {
          throw timeout();
        }
        throw new ConnectionClosedException(
            "the target closed the connection to "
                + description
                + " while clrscope was reading "
                + what
                + " (after "
                + done
                + " of "
                + buffer.length
                + " bytes): it may have exited");
      }
      done += n;
    }
  }

  private RuntimeException failure(String when, IOException e) {
    if (timedOut) {
      return timeout();
    }
    String m = String.valueOf(e.getMessage());
    if (m.contains("reset") || m.contains("Broken pipe")) {
      // The peer's end went away: on a socket, what a target that exits looks like.
      return new ConnectionClosedException(
          "the target closed the connection to "
              + description
              + " "
              + when
              + ": it may have exited",
          e);
    }
    return new ConnectionClosedException(
        "the connection to " + description + " failed " + when + ": " + e.getMessage(), e);
  }

  private IpcTimeoutException timeout() {
    return new IpcTimeoutException(
        "timed out waiting for " + awaiting + " from " + description + "; is the target hung?");
  }

  /**
   * The rest of the connection as a stream, for EventPipe sessions. End of stream means the session
   * ended (stopped, or the target exited).
   */
  public InputStream inputStream() {
    return new InputStream() {
      @Override
      public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xFF;
      }

      @Override
      public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
          return 0;
        }
        return readRaw(b, off, len);
      }

      @Override
      public void close() throws IOException {
        IpcConnection.this.close();
      }
    };
  }

  @Override
  public void close() {
    clearDeadline();
    abort();
  }
}
