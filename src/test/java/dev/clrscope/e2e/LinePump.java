package dev.clrscope.e2e;

import java.io.BufferedReader;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Reads one output stream of a child process on its own thread, so the child never blocks on a full
 * pipe, and hands the lines out both one at a time (for waiting on an answer) and as a whole (for
 * failure messages).
 */
final class LinePump {
  /** Queued once the stream has ended; compared by identity, never by content. */
  private static final Object END = new Object();

  private final BlockingQueue<Object> unread = new LinkedBlockingQueue<>();
  // Guarded by itself: appended by the pump thread, read by the test thread.
  private final StringBuilder text = new StringBuilder();
  private final Thread thread;

  LinePump(InputStream stream, String name) {
    thread = new Thread(() -> pump(stream), name);
    thread.setDaemon(true);
    thread.start();
  }

  private void pump(InputStream stream) {
    try (BufferedReader reader =
        new BufferedReader(new InputStreamReader(stream, StandardCharsets.UTF_8))) {
      for (String line = reader.readLine(); line != null; line = reader.readLine()) {
        synchronized (text) {
          text.append(line).append('\n');
        }
        unread.add(line);
      }
    } catch (IOException e) {
      // The pipe breaks when the process is killed; what was read before stays available.
    } finally {
      unread.add(END);
    }
  }

  /**
   * The next line not yet handed out.
   *
   * @throws EOFException if the stream ended before another line
   * @throws TimeoutException if no line arrived within {@code timeout}
   */
  String nextLine(Duration timeout) throws InterruptedException, EOFException, TimeoutException {
    Object next = unread.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
    if (next == null) {
      throw new TimeoutException("no line within " + timeout);
    }
    if (next == END) {
      // Put it back so every later call sees the end too.
      unread.add(END);
      throw new EOFException("the stream ended");
    }
    return (String) next;
  }

  /** Everything read so far, whether handed out or not; lines end with '\n'. */
  String text() {
    synchronized (text) {
      return text.toString();
    }
  }

  /** Waits until the stream has ended (the process exited and closed it) or the timeout passed. */
  void awaitEnd(Duration timeout) throws InterruptedException {
    thread.join(Math.max(1, timeout.toMillis()));
  }
}
