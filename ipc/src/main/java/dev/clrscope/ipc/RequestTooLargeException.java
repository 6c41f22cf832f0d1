package dev.clrscope.ipc;

/**
 * A request would be larger than one diagnostic IPC message can be (65,535 bytes, header included).
 * Nothing was sent. It comes from what the user asked for (too many providers, too long a filter,
 * name or value), so the CLI reports it as a usage error.
 */
public final class RequestTooLargeException extends DiagnosticsException {
  private static final long serialVersionUID = 1L;

  /** Too large a request, with a message that gives its size and the limit. */
  public RequestTooLargeException(String message) {
    super(message);
  }
}
