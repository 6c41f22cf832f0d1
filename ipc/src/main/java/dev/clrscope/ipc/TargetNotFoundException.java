package dev.clrscope.ipc;

/** No process, or no diagnostic endpoint, matches what the user asked for. */
public final class TargetNotFoundException extends DiagnosticsException {
  private static final long serialVersionUID = 1L;

  /** A target that cannot be found, with a message that says what to check. */
  public TargetNotFoundException(String message) {
    super(message);
  }
}
