package dev.clrscope.monitor.session;

import dev.clrscope.nettrace.TraceEvent;

/**
 * Takes the events of a live session, on the session's reader thread, in the order the request
 * asked for. An analysis that has seen what it waited for asks its {@link StopSwitch} to stop.
 */
@FunctionalInterface
public interface EventConsumer {
  /** One event. Must not block for long: the runtime's buffer fills while it runs. */
  void accept(TraceEvent event);

  /**
   * The stream has ended (stopped, or the target exited) and every event was handed out; flush what
   * is still pending. Called once, on the reader thread, before {@link SessionRunner#finish()}
   * returns.
   */
  default void streamEnded() {}

  /**
   * {@link #streamEnded()}, saying whether the stream ended by itself (the target exited, or
   * another tool stopped the session) rather than because clrscope stopped it. The session runner
   * calls this one; by default it calls {@link #streamEnded()}.
   */
  default void streamEnded(boolean endedByItself) {
    streamEnded();
  }
}
