package dev.clrscope.ipc;

/** The target did not connect or answer within the time allowed. */
public final class IpcTimeoutException extends DiagnosticsException {
  private static final long serialVersionUID = 1L;

  /** A timeout, with a message that says what was awaited. */
  public IpcTimeoutException(String message) {
    super(message);
  }
}
