package dev.clrscope.monitor.session;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The session's stream as the parser reads it: counted, and, when there is a recording, every byte
 * also written to it the moment it arrives (byte-exact: nothing is re-encoded). A failure to read
 * the session is the end of the stream (the target went away); a failure to write the recording is
 * kept for the caller, who must report it.
 */
final class SessionStream extends InputStream {
  private final InputStream session;
  private final OutputStream file;
  private final AtomicLong bytes = new AtomicLong();
  private volatile IOException fileError;
  private volatile IOException sessionError;
  private boolean ended;

  /** A stream over {@code session}, recorded into {@code file} unless it is {@code null}. */
  SessionStream(InputStream session, OutputStream file) {
    this.session = session;
    this.file = file;
  }

  @Override
  public int read() throws IOException {
    byte[] one = new byte[1];
    int n = read(one, 0, 1);
    return n <= 0 ? -1 : one[0] & 0xFF;
  }

  @Override
  public int read(byte[] b, int off, int len) throws IOException {
    if (ended || len == 0) {
      return ended ? -1 : 0;
    }
    int n;
    try {
      n = session.read(b, off, len);
    } catch (IOException e) {
      sessionError = e;
      n = -1;
    } catch (RuntimeException e) {
      // The ipc layer reports a broken connection unchecked.
      sessionError = new IOException(e.getMessage(), e);
      n = -1;
    }
    if (n < 0) {
      ended = true;
      return -1;
    }
    if (file == null) {
      bytes.addAndGet(n);
      return n;
    }
    try {
      file.write(b, off, n);
      // On disk at once: whatever happens to clrscope later, what arrived is kept.
      file.flush();
    } catch (IOException e) {
      fileError = e;
      ended = true;
      throw e;
    }
    bytes.addAndGet(n);
    return n;
  }

  /** Reads (and records) whatever the parser left, up to the end of the stream. */
  void drain() throws IOException {
    byte[] buf = new byte[64 * 1024];
    while (read(buf, 0, buf.length) >= 0) {
      // Copying is the point.
    }
  }

  /** Bytes recorded so far; safe from any thread. */
  long bytes() {
    return bytes.get();
  }

  /** Why writing the file failed, or null. */
  IOException fileError() {
    return fileError;
  }

  /** Why reading the session failed (rather than ended), or null. */
  IOException sessionError() {
    return sessionError;
  }

  /** The session and the file are closed by their owners. */
  @Override
  public void close() {}
}
