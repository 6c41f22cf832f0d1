package dev.clrscope.cli.output;

import dev.clrscope.cli.render.OutputFormat;
import dev.clrscope.cli.render.Renderer;
import dev.clrscope.cli.render.Result;
import dev.clrscope.cli.render.Terminal;
import java.io.PrintStream;

/**
 * Where one run of clrscope writes: its data on {@link #out()}, progress, warnings and errors on
 * {@link #err()}, and a command's result drawn there in the format chosen ({@link #draw}). {@code
 * Main} hands it to the command it runs; a test hands its own, which keeps the results as well.
 */
public class RunOutput {
  private final PrintStream out;
  private final PrintStream err;
  private final boolean processStdout;

  /**
   * An output on these streams.
   *
   * @param processStdout whether {@code out} is this process's standard output, so that a table
   *     fits the terminal when that is one
   */
  public RunOutput(PrintStream out, PrintStream err, boolean processStdout) {
    this.out = out;
    this.err = err;
    this.processStdout = processStdout;
  }

  /** An output on streams of the caller's (a table then has no width limit). */
  public RunOutput(PrintStream out, PrintStream err) {
    this(out, err, false);
  }

  /** The process's standard output and error, as they are now. */
  public static RunOutput standard() {
    return new RunOutput(System.out, System.err, true);
  }

  /** Where data goes. */
  public PrintStream out() {
    return out;
  }

  /** Where progress, warnings, notes and errors go. */
  public PrintStream err() {
    return err;
  }

  /**
   * The renderer of {@code format} on these streams: a table fits the terminal when {@code out} is
   * this process's stdout and a terminal.
   */
  public Renderer renderer(OutputFormat format) {
    return Renderer.of(
        format,
        out,
        err,
        format == OutputFormat.table && processStdout ? Terminal.stdoutSize() : Terminal.Size.NONE);
  }

  /**
   * Draws a command's result in {@code format}; returns once it is drawn (records: all of them).
   */
  public void draw(Result result, OutputFormat format) {
    renderer(format).draw(result);
  }
}
