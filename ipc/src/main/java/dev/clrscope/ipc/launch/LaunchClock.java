package dev.clrscope.ipc.launch;

/**
 * When a launched child reached each step of its start, as {@link System#nanoTime()} readings: the
 * JVM's monotonic clock, which on Linux is {@code CLOCK_MONOTONIC}, the clock the runtime stamps
 * its events with, so the two can be subtracted.
 *
 * <pre>
 *   started ── host and native runtime start ──▶ waiting ── held by the tool ──▶ resumed ── app ──▶
 * </pre>
 *
 * @param startedNanos just before the child was started
 * @param waitingNanos when its runtime connected to clrscope's port: it then waits to be resumed
 * @param resumedNanos just before the resume command was sent
 */
public record LaunchClock(long startedNanos, long waitingNanos, long resumedNanos) {
  /** The host's and the runtime's native start, up to the point where it waits for a tool. */
  public long startToWaitNanos() {
    return waitingNanos - startedNanos;
  }

  /** How long the runtime waited for clrscope: the session's setup, not part of a normal start. */
  public long heldNanos() {
    return resumedNanos - waitingNanos;
  }
}
