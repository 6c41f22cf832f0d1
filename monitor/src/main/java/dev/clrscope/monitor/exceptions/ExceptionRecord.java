package dev.clrscope.monitor.exceptions;

import dev.clrscope.symbols.Frame;
import java.time.Instant;
import java.util.List;

/**
 * One exception as the runtime threw it (ExceptionThrown_V1), with what became of it on its thread.
 *
 * @param time when it was thrown (the event's wall-clock time)
 * @param relativeNanos when it was thrown, from the start of the trace
 * @param threadId the OS thread that threw it
 * @param type the exception's full type name
 * @param message its message
 * @param hresult its HRESULT
 * @param flags the runtime's ExceptionFlags by name ({@link ExceptionFlag})
 * @param throwSite where the user's code threw it, with the line of the throw when its PDB is
 *     found: the first named frame outside the runtime's exception dispatch and the framework
 *     ({@code System.}, {@code Microsoft.}); when there is none, the first outside the dispatch, or
 *     a hex address when the method was not named yet
 * @param thrownIn the framework's frame that threw it on the user's behalf ({@code
 *     System.Number.ThrowFormatException} under {@code int.Parse}), or {@code null} when the user's
 *     code threw it itself
 * @param stack the call stack, innermost first, as named when the record was made (hex for frames
 *     not named yet), with lines where known; empty unless stacks were asked for
 * @param caught whether a catch handler on the same thread was entered for it
 * @param unhandled whether it was still in flight when the target exited: no handler took it and it
 *     ended its thread, and with it the process (a live session that the target's exit ended)
 * @param catchingMethod the method whose catch handler was entered, as the runtime names it
 *     (ExceptionCatchStart's MethodName), or {@code null}
 */
public record ExceptionRecord(
    Instant time,
    long relativeNanos,
    long threadId,
    String type,
    String message,
    long hresult,
    List<String> flags,
    Frame throwSite,
    Frame thrownIn,
    List<Frame> stack,
    boolean caught,
    boolean unhandled,
    String catchingMethod) {

  /** Copies the lists. */
  public ExceptionRecord {
    flags = List.copyOf(flags);
    stack = List.copyOf(stack);
  }

  /**
   * What became of it: {@code caught}, {@code unhandled} (the target died with it in flight) or
   * {@code uncaught} (no catch seen while watched).
   */
  public String handling() {
    return caught ? "caught" : unhandled ? "unhandled" : "uncaught";
  }
}
