package dev.clrscope.ipc;

/** The target closed the connection before a whole reply arrived: usually, it exited. */
public final class ConnectionClosedException extends DiagnosticsException {
  private static final long serialVersionUID = 1L;

  /** The connection ended early. */
  public ConnectionClosedException(String message) {
    super(message);
  }

  /** The connection ended early, with the I/O error that said so. */
  public ConnectionClosedException(String message, Throwable cause) {
    super(message, cause);
  }
}
