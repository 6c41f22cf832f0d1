package dev.clrscope.cli.commands.analyze;

/**
 * A command line at analyze's prompt that is not one of its commands, or not what the command
 * takes: at the prompt one line and the prompt goes on; given with {@code -c}, a usage error.
 */
final class SosUsageException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  SosUsageException(String message) {
    super(message);
  }
}
