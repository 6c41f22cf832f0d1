package dev.clrscope.ipc;

/**
 * The runtime knows none of the command versions that can express a request: a session option it is
 * too old for. A caller that can do without the option asks again without it.
 */
public final class RuntimeTooOldException extends DiagnosticsException {
  private static final long serialVersionUID = 1L;

  /** A failure with a user-facing message and the runtime's own answer. */
  public RuntimeTooOldException(String message, Throwable cause) {
    super(message, cause);
  }
}
