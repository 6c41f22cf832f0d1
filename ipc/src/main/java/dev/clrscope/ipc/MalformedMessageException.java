package dev.clrscope.ipc;

/** Bytes from the peer that do not form a valid message: wrong magic, sizes that do not add up. */
public final class MalformedMessageException extends DiagnosticsException {
  private static final long serialVersionUID = 1L;
  private final long offset;

  /**
   * A malformed message.
   *
   * @param offset where in the message the problem was found
   * @param message what was expected there
   */
  public MalformedMessageException(long offset, String message) {
    super("malformed IPC message at offset " + offset + ": " + message);
    this.offset = offset;
  }

  /** The byte offset, within the message, of the problem. */
  public long offset() {
    return offset;
  }
}
