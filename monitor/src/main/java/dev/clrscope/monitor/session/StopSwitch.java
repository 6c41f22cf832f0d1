package dev.clrscope.monitor.session;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Why and when a live session should stop. Anything may ask: a signal handler (Ctrl+C, SIGTERM),
 * Enter on a terminal, a duration running out, a consumer that saw what it waited for, or the
 * stream ending because the target exited. The first request wins and names the reason; a later
 * {@link #abandon()} asks to give up on what is left of a stopping session (its rundown) while
 * keeping what was already read.
 */
public final class StopSwitch {
  private final CountDownLatch stop = new CountDownLatch(1);
  private final CountDownLatch abandon = new CountDownLatch(1);
  private volatile String reason;
  private volatile String abandonReason;
  private volatile boolean durationReached;
  private final List<StopSwitch> followers = new CopyOnWriteArrayList<>();

  /** Asks for a clean stop; the first reason given is kept. */
  public void request(String why) {
    synchronized (this) {
      if (reason == null) {
        reason = why;
      }
    }
    stop.countDown();
    for (StopSwitch f : followers) {
      f.request(why);
    }
  }

  /** Asks to abandon the rest of a stopping session; also asks for a stop if none was asked yet. */
  public void abandon(String why) {
    request(why);
    if (abandonReason == null) {
      abandonReason = why;
    }
    abandon.countDown();
    for (StopSwitch f : followers) {
      f.abandon(why);
    }
  }

  /**
   * Passes every stop and abandon asked of this switch, now and later, on to {@code other} too: a
   * second session of the same command (one the user's Ctrl+C must stop as well) follows the first.
   */
  public void alsoStops(StopSwitch other) {
    followers.add(other);
    if (isAbandoned()) {
      other.abandon(abandonReason);
    } else if (isStopRequested()) {
      other.request(reason);
    }
  }

  /** Why abandoning was asked for, or {@code null}. */
  public String abandonReason() {
    return abandonReason;
  }

  /**
   * Asks for a stop after {@code duration}, unless one was asked before; {@code null} does nothing.
   * The timer is a daemon thread that ends with the stop.
   */
  public void stopAfter(Duration duration) {
    if (duration == null) {
      return;
    }
    Thread timer =
        new Thread(
            () -> {
              try {
                if (!stop.await(millis(duration), TimeUnit.MILLISECONDS)) {
                  synchronized (this) {
                    durationReached = reason == null;
                  }
                  request("duration of " + describe(duration) + " reached");
                }
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "clrscope-duration");
    timer.setDaemon(true);
    timer.start();
  }

  private static String describe(Duration d) {
    long ms = millis(d);
    return ms % 1000 == 0 || ms == Long.MAX_VALUE ? d.toSeconds() + " s" : ms / 1000.0 + " s";
  }

  /** The duration in milliseconds, saturated: a duration of ages must not overflow the timer. */
  private static long millis(Duration d) {
    try {
      return d.toMillis();
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE;
    }
  }

  /** Whether a stop was asked for. */
  public boolean isStopRequested() {
    return stop.getCount() == 0;
  }

  /** Whether the duration given to {@link #stopAfter} was the first reason to stop. */
  public boolean stoppedByDuration() {
    return durationReached;
  }

  /** Whether abandoning was asked for. */
  public boolean isAbandoned() {
    return abandon.getCount() == 0;
  }

  /** The first reason given, or {@code null}. */
  public String reason() {
    return reason;
  }

  /** Waits until a stop is asked for or the timeout passes; true if one was asked for. */
  public boolean awaitStop(Duration timeout) throws InterruptedException {
    return stop.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** Waits until abandoning is asked for or the timeout passes; true if it was. */
  public boolean awaitAbandon(Duration timeout) throws InterruptedException {
    return abandon.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
  }
}
