package dev.clrscope.cli.render;

import java.io.PrintStream;
import java.util.function.Supplier;

/**
 * The live status line of a running session on stderr (a trace, a heap walk), redrawn in place
 * twice a second, only when stderr is a terminal: redirected output gets the final summary line
 * alone, not a stream of carriage returns.
 */
public final class ProgressLine implements AutoCloseable {
  private final PrintStream err;
  private final Supplier<String> status;
  private final Thread painter;
  private volatile boolean running = true;
  private int lastLength;

  /**
   * Starts painting if {@code live}.
   *
   * @param status the text of the line, computed at each redraw
   */
  public ProgressLine(PrintStream err, boolean live, Supplier<String> status) {
    this.err = err;
    this.status = status;
    if (live) {
      painter = new Thread(this::paintLoop, "clrscope-progress");
      painter.setDaemon(true);
      painter.start();
    } else {
      painter = null;
    }
  }

  private void paintLoop() {
    while (running) {
      paint();
      try {
        Thread.sleep(500);
      } catch (InterruptedException e) {
        return;
      }
    }
  }

  private synchronized void paint() {
    if (!running) {
      return;
    }
    String s = status.get();
    int pad = Math.max(0, lastLength - s.length());
    err.print("\r" + s + " ".repeat(pad));
    err.flush();
    lastLength = s.length();
  }

  /** Prints a whole line above the status line (or simply a line when not live). */
  public synchronized void note(String line) {
    if (painter != null && lastLength > 0) {
      err.print("\r" + " ".repeat(lastLength) + "\r");
      lastLength = 0;
    }
    err.println(line);
    err.flush();
  }

  @Override
  public synchronized void close() {
    running = false;
    if (painter != null) {
      painter.interrupt();
      if (lastLength > 0) {
        err.print("\r" + " ".repeat(lastLength) + "\r");
        err.flush();
        lastLength = 0;
      }
    }
  }

  /**
   * Whether a person is watching. Java cannot test stderr itself; {@link System#console()} (stdin
   * and stdout on a terminal) stands in for it. From JDK 22 a console exists even when redirected,
   * so its {@code isTerminal()} is asked where it exists.
   */
  // The null test is the JDK 17-21 answer; isTerminal() below is the JDK 22+ one.
  @SuppressWarnings("SystemConsoleNull")
  public static boolean stderrIsTerminal() {
    if (Terminal.fronted()) {
      return Terminal.isTerminal(2);
    }
    java.io.Console console = System.console();
    if (console == null) {
      return false;
    }
    try {
      return (Boolean) java.io.Console.class.getMethod("isTerminal").invoke(console);
    } catch (ReflectiveOperationException e) {
      // JDK 17-21: a non-null console means a terminal.
      return true;
    }
  }
}
