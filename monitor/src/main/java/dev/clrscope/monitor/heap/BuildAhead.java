package dev.clrscope.monitor.heap;

import dev.clrscope.monitor.session.StopSwitch;
import dev.clrscope.nettrace.TraceEvent;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A heap walk's events built into the graph on a thread of their own: the session's reader thread
 * reads the socket and decodes the blocks on one core while this one puts each event's objects and
 * references into the builder's columns on the other (a walk of millions of objects is hundreds of
 * megabytes of events, read as fast as one core takes them in). At most {@link #WAITING} events
 * wait between the two (a walk's event is about 64 KB: a few megabytes).
 */
final class BuildAhead implements AutoCloseable {
  private static final int WAITING = 32;

  private static final Object END = new Object();

  private final BlockingQueue<Object> queue = new ArrayBlockingQueue<>(WAITING);
  private final Thread thread;
  private volatile boolean closed;
  private volatile Throwable failure;

  /** Starts the thread that hands each event to {@code build}; a failure stops the session. */
  BuildAhead(Consumer<TraceEvent> build, StopSwitch stop) {
    thread =
        new Thread(
            () -> {
              try {
                for (Object o; (o = queue.take()) != END; ) {
                  build.accept((TraceEvent) o);
                }
              } catch (InterruptedException e) {
                // Closed.
              } catch (RuntimeException | Error e) {
                failure = e;
                closed = true;
                queue.clear();
                stop.request("building the heap graph failed");
              }
            },
            "clrscope-heap-builder");
    thread.setDaemon(true);
    thread.start();
  }

  /**
   * Takes one event, on the session's reader thread; waits while the builder is {@link #WAITING}
   * events behind. Dropped once this is closed or has failed.
   */
  void accept(TraceEvent e) {
    try {
      while (!closed && !queue.offer(e, 100, TimeUnit.MILLISECONDS)) {
        // The builder is behind: wait for it, as building on this thread would have.
      }
    } catch (InterruptedException ex) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Once the session has ended (no event comes any more): waits until every event taken was built,
   * and rethrows what building threw.
   */
  void finish() throws InterruptedException {
    while (thread.isAlive() && !queue.offer(END, 100, TimeUnit.MILLISECONDS)) {
      // The builder is still behind.
    }
    thread.join();
    closed = true;
    Throwable f = failure;
    if (f instanceof RuntimeException e) {
      throw e;
    }
    if (f instanceof Error e) {
      throw e;
    }
  }

  /** Stops the building thread, whatever it was doing (the walk failed or was given up). */
  @Override
  public void close() {
    closed = true;
    thread.interrupt();
    queue.clear();
  }
}
