package dev.clrscope.monitor.contention;

import dev.clrscope.symbols.Frame;
import java.time.Instant;
import java.util.List;

/**
 * One time a thread was blocked: on a contended lock, or waiting on a wait handle.
 *
 * @param kind {@code lock} (ContentionStart/Stop) or {@code wait} (WaitHandleWaitStart/Stop)
 * @param time when the thread started to wait (the start event's wall-clock time)
 * @param relativeNanos the same, from the start of the trace
 * @param threadId the OS thread that waited
 * @param durationNanos how long it waited: ContentionStop's DurationNs where the runtime gives it
 *     (V1), else the time between the start and stop events
 * @param ownerThreadId the OS thread holding the lock when the wait began (ContentionStart_V2's
 *     LockOwnerThreadID), or {@code null} when the runtime does not say
 * @param lockId the lock's id (ContentionStart_V2's LockID), or {@code null}
 * @param objectId the address of the object locked or waited on (AssociatedObjectID), or {@code
 *     null} when the runtime gives none
 * @param source for a wait, what waited (WaitHandleWaitStart's WaitSource: {@code Unknown} or
 *     {@code MonitorWait}); for a lock, {@code Managed} or {@code Native} (ContentionFlags)
 * @param method the waiting method: the first named frame outside the runtime's threading code, or
 *     a hex address when not named yet; with the line of the wait where its PDB is found
 * @param stack the waiting call stack, innermost first, as named when the record was made, with
 *     lines where known; empty unless stacks were asked for
 */
public record BlockedRecord(
    String kind,
    Instant time,
    long relativeNanos,
    long threadId,
    long durationNanos,
    Long ownerThreadId,
    Long lockId,
    Long objectId,
    String source,
    Frame method,
    List<Frame> stack) {

  /** A lock contention. */
  public static final String LOCK = "lock";

  /** A wait on a wait handle. */
  public static final String WAIT = "wait";

  /** Copies the stack. */
  public BlockedRecord {
    stack = List.copyOf(stack);
  }

  /** The duration in milliseconds. */
  public double durationMillis() {
    return durationNanos / 1e6;
  }
}
