package dev.clrscope.cli.output;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * Standard output that remembers why a write failed. {@link PrintStream} swallows the {@link
 * IOException} and keeps only a flag, so a full disk ({@code > file}) looked like success and a
 * reader that went away ({@code | head}) went unnoticed. Installed by {@code Main.main} only (tests
 * that capture System.out run without it).
 *
 * <p>Listeners hear of the first failure at once: live commands stop their session on it, as a
 * broken pipe ends any Unix tool.
 */
public final class StandardOutput {
  private static volatile CheckedOutputStream installed;

  private StandardOutput() {}

  /** Replaces System.out with a UTF-8, line-flushed stream over file descriptor 1 that records. */
  public static void install() {
    CheckedOutputStream r = new CheckedOutputStream(new FileOutputStream(FileDescriptor.out));
    System.setOut(
        new PrintStream(new BufferedOutputStream(r, 1 << 13), true, StandardCharsets.UTF_8));
    installed = r;
  }

  /**
   * Flushes System.out and returns why writing to it failed, or {@code null} if it did not (or this
   * stream was not installed).
   */
  public static IOException failure() {
    System.out.flush();
    CheckedOutputStream r = installed;
    return r == null ? null : r.failure();
  }

  /** Whether a failure means the reader went away (a closed pipe), not that data was lost. */
  public static boolean readerWentAway(IOException e) {
    String m = e.getMessage();
    return m != null && m.contains("Broken pipe");
  }

  /** Runs {@code listener} when writing to standard output first fails (if installed). */
  public static void onFailure(Runnable listener) {
    CheckedOutputStream r = installed;
    if (r != null) {
      r.onFailure(listener);
    }
  }

  /** Stops telling {@code listener}. */
  public static void removeListener(Runnable listener) {
    CheckedOutputStream r = installed;
    if (r != null) {
      r.removeListener(listener);
    }
  }
}
