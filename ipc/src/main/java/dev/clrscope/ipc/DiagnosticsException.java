package dev.clrscope.ipc;

/**
 * The root of every failure the IPC layer reports about a target or its environment.
 *
 * <p>Messages are written for a person at a terminal: they say what went wrong and, where there is
 * one, what to do about it. Programming errors are not wrapped in this type.
 */
public class DiagnosticsException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** A failure with a user-facing message. */
  public DiagnosticsException(String message) {
    super(message);
  }

  /** A failure with a user-facing message and the low-level cause. */
  public DiagnosticsException(String message, Throwable cause) {
    super(message, cause);
  }
}
