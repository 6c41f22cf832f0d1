package dev.clrscope.cli.render;

/**
 * What a command returns: a whole {@link Report}, {@link Records} that come while it works, or
 * {@link Done} (nothing to draw, an exit code). The one place that draws it is {@link
 * Renderer#draw}; tests take the result itself and never read it back from text.
 */
public sealed interface Result permits Report, Records, Result.Done {
  /** The exit code of the command's own work (a launched app's code is passed through apart). */
  default int exitCode() {
    return 0;
  }

  /**
   * A target or environment failure to end the command with once the result is drawn (a heap not
   * read whole: what could be read is shown, then the one line), or {@code null}.
   */
  default String failureAfterDrawn() {
    return null;
  }

  /**
   * A command that prints no data (it wrote a file, changed the target, or ran a prompt).
   *
   * @param exitCode its exit code
   */
  record Done(int exitCode) implements Result {}

  /** Nothing to draw, success. */
  static Result done() {
    return new Done(0);
  }

  /** Nothing to draw, with this exit code. */
  static Result exit(int code) {
    return new Done(code);
  }
}
