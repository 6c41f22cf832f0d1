package dev.clrscope.cli.output;

import java.io.BufferedOutputStream;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

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
  private static volatile Recording installed;
  private static final List<Runnable> LISTENERS = new CopyOnWriteArrayList<>();

  private StandardOutput() {}

  /** Replaces System.out with a UTF-8, line-flushed stream over file descriptor 1 that records. */
  public static void install() {
    Recording r = new Recording(new FileOutputStream(FileDescriptor.out));
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
    Recording r = installed;
    return r == null ? null : r.failure;
  }

  /** Whether a failure means the reader went away (a closed pipe), not that data was lost. */
  public static boolean readerWentAway(IOException e) {
    String m = e.getMessage();
    return m != null && m.contains("Broken pipe");
  }

  /** Runs {@code listener} (once) when writing to standard output first fails. */
  public static void onFailure(Runnable listener) {
    LISTENERS.add(listener);
    Recording r = installed;
    if (r != null && r.failure != null) {
      listener.run();
    }
  }

  /** Stops telling {@code listener}. */
  public static void removeListener(Runnable listener) {
    LISTENERS.remove(listener);
  }

  /** Passes bytes to the real stream; keeps the first failure and tells the listeners. */
  private static final class Recording extends OutputStream {
    private final OutputStream out;
    private volatile IOException failure;

    Recording(OutputStream out) {
      this.out = out;
    }

    @Override
    public void write(int b) throws IOException {
      try {
        out.write(b);
      } catch (IOException e) {
        throw failed(e);
      }
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
      try {
        out.write(b, off, len);
      } catch (IOException e) {
        throw failed(e);
      }
    }

    @Override
    public void flush() throws IOException {
      try {
        out.flush();
      } catch (IOException e) {
        throw failed(e);
      }
    }

    private IOException failed(IOException e) {
      if (failure == null) {
        failure = e;
        LISTENERS.forEach(Runnable::run);
      }
      return e;
    }
  }
}
