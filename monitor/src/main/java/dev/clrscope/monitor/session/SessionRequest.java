package dev.clrscope.monitor.session;

import dev.clrscope.ipc.session.EventPipeSessionConfig;
import java.io.OutputStream;
import java.time.Duration;
import java.util.Objects;

/**
 * What a live session asks of the runtime and how its stream is read.
 *
 * @param config the providers, buffer, rundown and stacks
 * @param ordering how events are ordered across threads before they reach the consumers
 * @param duration stop after this long; {@code null} for no limit
 * @param drainTimeout after StopTracing, how long to wait for the stream's end (the rundown) before
 *     abandoning it; {@code null} to wait until it ends or {@link StopSwitch#abandon} is asked
 * @param recording every byte of the stream is also written here, as it arrives; {@code null} for
 *     none. The caller owns (and closes) it.
 * @param threadName the reader thread's name, for thread dumps and logs
 * @param beforeReading what runs once the session is started and before its stream is read (the
 *     events wait in the runtime's buffer meanwhile), or {@code null}: the method names of the code
 *     compiled before the session, from a short rundown session of their own
 */
public record SessionRequest(
    EventPipeSessionConfig config,
    Ordering ordering,
    Duration duration,
    Duration drainTimeout,
    OutputStream recording,
    String threadName,
    BeforeReading beforeReading) {

  /** Work between a session's start and the first read of its stream. */
  @FunctionalInterface
  public interface BeforeReading {
    /** Runs on the thread that starts the session. */
    void run() throws InterruptedException;
  }

  /** How the reader orders events. */
  public enum Ordering {
    /**
     * Global timestamp order: an event is released once later events of every thread prove nothing
     * older can still come. Analyses that pair events of different threads need it.
     */
    GLOBAL,
    /**
     * Each block's events as soon as the block is read (about 0.1 s after the runtime wrote them);
     * order holds within a thread, not across threads. For views of self-timestamped values.
     */
    LIVE
  }

  /** Without a rundown, the runtime closes the stream promptly after StopTracing. */
  public static final Duration SHORT_DRAIN = Duration.ofSeconds(10);

  /** Checks the values. */
  public SessionRequest {
    Objects.requireNonNull(config, "config");
    Objects.requireNonNull(ordering, "ordering");
    Objects.requireNonNull(threadName, "threadName");
  }

  /** Global ordering, no duration, a short drain, no recording. */
  public static SessionRequest of(EventPipeSessionConfig config, String threadName) {
    return new SessionRequest(config, Ordering.GLOBAL, null, SHORT_DRAIN, null, threadName, null);
  }

  /** This request with another ordering. */
  public SessionRequest withOrdering(Ordering o) {
    return new SessionRequest(
        config, o, duration, drainTimeout, recording, threadName, beforeReading);
  }

  /** This request with a duration ({@code null}: none). */
  public SessionRequest withDuration(Duration d) {
    return new SessionRequest(
        config, ordering, d, drainTimeout, recording, threadName, beforeReading);
  }

  /** This request with another drain timeout ({@code null}: until the end or an abandon). */
  public SessionRequest withDrainTimeout(Duration d) {
    return new SessionRequest(config, ordering, duration, d, recording, threadName, beforeReading);
  }

  /** This request, recording the stream's bytes to {@code out}. */
  public SessionRequest withRecording(OutputStream out) {
    return new SessionRequest(
        config, ordering, duration, drainTimeout, out, threadName, beforeReading);
  }

  /** This request, with {@code work} run between the session's start and its first read. */
  public SessionRequest withBeforeReading(BeforeReading work) {
    return new SessionRequest(
        config, ordering, duration, drainTimeout, recording, threadName, work);
  }
}
