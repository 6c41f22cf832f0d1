package dev.clrscope.ipc.testing;

import dev.clrscope.ipc.transport.IpcConnection;
import java.io.ByteArrayOutputStream;
import java.io.IOException;

/** An in-memory connection: reads come from a fixed byte array, writes are recorded. */
public final class MemoryConnection extends IpcConnection {
  private final byte[] inbound;
  private final int chunk;
  private final ByteArrayOutputStream written = new ByteArrayOutputStream();
  private int pos;
  private boolean aborted;

  /** Serves {@code inbound}, at most {@code chunk} bytes per read, then end of stream. */
  public MemoryConnection(byte[] inbound, int chunk) {
    super("memory");
    this.inbound = inbound.clone();
    this.chunk = chunk;
  }

  /** Everything written so far. */
  public byte[] written() {
    return written.toByteArray();
  }

  /** Whether the connection was aborted (closed). */
  public boolean aborted() {
    return aborted;
  }

  @Override
  protected int readRaw(byte[] buffer, int offset, int len) throws IOException {
    if (aborted || pos == inbound.length) {
      return -1;
    }
    int n = Math.min(Math.min(len, chunk), inbound.length - pos);
    System.arraycopy(inbound, pos, buffer, offset, n);
    pos += n;
    return n;
  }

  @Override
  protected void writeRaw(byte[] buffer, int offset, int len) throws IOException {
    if (aborted) {
      throw new IOException("closed");
    }
    written.write(buffer, offset, len);
  }

  @Override
  protected void abort() {
    aborted = true;
  }
}
