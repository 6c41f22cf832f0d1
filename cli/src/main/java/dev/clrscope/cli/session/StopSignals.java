package dev.clrscope.cli.session;

import java.io.IOException;
import java.io.InputStream;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import sun.misc.Signal;

/**
 * Why and when a long-running command (a trace, a GC watch) should stop: Ctrl+C, SIGTERM, Enter on
 * a terminal, or its duration running out. The first signal asks for a clean stop (StopTracing,
 * rundown, file closed); a second one asks to abandon what is left (the rundown) while still
 * leaving valid output. Signal handlers, rather than shutdown hooks, keep the JVM alive for the
 * clean stop.
 */
public final class StopSignals implements AutoCloseable {
  private final CountDownLatch stop = new CountDownLatch(1);
  private final CountDownLatch abandon = new CountDownLatch(1);
  private final AtomicInteger signals = new AtomicInteger();
  private volatile String reason;
  private Thread enterWatcher;

  private StopSignals() {}

  /**
   * Starts watching.
   *
   * @param duration stop after this long; {@code null} for no limit
   * @param watchEnter stop when Enter is pressed (only when stdin is a terminal)
   */
  // Java 17's System.console() is null exactly when stdin or stdout is not a terminal.
  @SuppressWarnings("SystemConsoleNull")
  public static StopSignals install(Duration duration, boolean watchEnter) {
    StopSignals s = new StopSignals();
    for (String name : new String[] {"INT", "TERM"}) {
      try {
        Signal.handle(new Signal(name), sig -> s.signal("SIG" + name));
      } catch (IllegalArgumentException e) {
        // Not on this platform (Windows has no TERM): Ctrl+C still works through INT.
      }
    }
    if (duration != null) {
      Thread timer =
          new Thread(
              () -> {
                try {
                  if (!s.stop.await(duration.toMillis(), TimeUnit.MILLISECONDS)) {
                    s.request("duration of " + duration.toSeconds() + " s reached");
                  }
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                }
              },
              "clrscope-duration");
      timer.setDaemon(true);
      timer.start();
    }
    if (watchEnter && System.console() != null) {
      s.enterWatcher = new Thread(() -> s.watchEnter(System.in), "clrscope-enter");
      s.enterWatcher.setDaemon(true);
      s.enterWatcher.start();
    }
    return s;
  }

  private void watchEnter(InputStream in) {
    try {
      int c;
      while ((c = in.read()) >= 0) {
        if (c == '\n' || c == '\r') {
          request("Enter pressed");
          return;
        }
      }
    } catch (IOException e) {
      // No usable stdin: other stop reasons remain.
    }
  }

  private void signal(String name) {
    if (signals.incrementAndGet() == 1) {
      request(name);
    } else {
      abandon.countDown();
    }
  }

  /** Asks for a clean stop (also used when the target exits or a stopping event is seen). */
  public void request(String why) {
    if (reason == null) {
      reason = why;
    }
    stop.countDown();
  }

  /** Whether a stop was asked for. */
  public boolean isStopRequested() {
    return stop.getCount() == 0;
  }

  /** Whether a second signal asked to abandon the remaining work. */
  public boolean isAbandoned() {
    return abandon.getCount() == 0;
  }

  /** Why the stop was asked for, or {@code null}. */
  public String reason() {
    return reason;
  }

  /** Waits until a stop is asked for, or the timeout passes; true if a stop was asked for. */
  public boolean awaitStop(Duration timeout) throws InterruptedException {
    return stop.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Waits until a second signal, or the timeout passes; true if abandoned. */
  public boolean awaitAbandon(Duration timeout) throws InterruptedException {
    return abandon.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  @Override
  public void close() {
    for (String name : new String[] {"INT", "TERM"}) {
      try {
        Signal.handle(new Signal(name), sun.misc.SignalHandler.SIG_DFL);
      } catch (IllegalArgumentException e) {
        // Never installed.
      }
    }
  }
}
