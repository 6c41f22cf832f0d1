package dev.clrscope.ipc;

/** The diagnostic endpoint exists but this user may not connect to it. */
public final class EndpointAccessDeniedException extends DiagnosticsException {
  private static final long serialVersionUID = 1L;

  /** Access denied, with a message naming the owner and what to run instead. */
  public EndpointAccessDeniedException(String message, Throwable cause) {
    super(message, cause);
  }
}
