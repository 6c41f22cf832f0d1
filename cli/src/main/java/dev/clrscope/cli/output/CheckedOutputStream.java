package dev.clrscope.cli.output;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Passes bytes on and keeps the first failure, telling its listeners at once. Under a {@link
 * java.io.PrintStream}, which swallows the {@link IOException} and keeps only a flag, this is how a
 * command learns that its output hit a full disk or a closed pipe, and why.
 */
public final class CheckedOutputStream extends OutputStream {
  private final OutputStream out;
  private final List<Runnable> listeners = new CopyOnWriteArrayList<>();
  private volatile IOException failure;

  /** Checks writes to {@code out}. */
  public CheckedOutputStream(OutputStream out) {
    this.out = out;
  }

  /** The first failure, or {@code null}. */
  public IOException failure() {
    return failure;
  }

  /** Runs {@code listener} when a write first fails, or now if one already has. */
  public void onFailure(Runnable listener) {
    listeners.add(listener);
    if (failure != null) {
      listener.run();
    }
  }

  /** Stops telling {@code listener}. */
  public void removeListener(Runnable listener) {
    listeners.remove(listener);
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

  @Override
  public void close() throws IOException {
    try {
      out.close();
    } catch (IOException e) {
      throw failed(e);
    }
  }

  private IOException failed(IOException e) {
    if (failure == null) {
      failure = e;
      listeners.forEach(Runnable::run);
    }
    return e;
  }
}
