package dev.clrscope.cli;

/**
 * A failure caused by the target or the environment, not by clrscope: reported as one line, {@code
 * clrscope CMD: message}, with exit code 1. The message says what to do about it.
 */
public final class CommandFailure extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** A failure with a message for the user. */
  public CommandFailure(String message) {
    super(message);
  }

  /** A failure with a message for the user and its cause. */
  public CommandFailure(String message, Throwable cause) {
    super(message, cause);
  }
}
