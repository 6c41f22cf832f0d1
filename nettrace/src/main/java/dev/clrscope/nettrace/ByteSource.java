package dev.clrscope.nettrace;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Arrays;

/**
 * The bottom layer: a forward-only little-endian reader over an {@link InputStream} that knows its
 * absolute offset, so that every error and every alignment rule can refer to the stream position.
 *
 * <p>It never allocates in proportion to a length read from the stream: {@link #readBlock} grows
 * its destination only as bytes actually arrive, so a corrupted length meets end-of-stream long
 * before it can exhaust memory.
 */
final class ByteSource implements Closeable {
  private static final int BUFFER_SIZE = 1 << 16;

  /**
   * A block's array is first made this big at most, then grows as bytes arrive: real blocks are
   * around 100 KB and are made at their size at once; a corrupt size of up to 64 MB costs 1 MB
   * before the stream's end says so.
   */
  private static final int INITIAL_BLOCK_CAPACITY = 1 << 20;

  private final InputStream in;
  private final byte[] buf = new byte[BUFFER_SIZE];
  private int pos;
  private int limit;

  /** Absolute stream offset of {@code buf[0]}. */
  private long base;

  ByteSource(InputStream in) {
    this.in = in;
  }

  long position() {
    return base + pos;
  }

  /** Refills the buffer; returns false at end of stream. */
  private boolean fill() {
    base += limit;
    pos = 0;
    limit = 0;
    try {
      int n;
      do {
        n = in.read(buf, 0, buf.length);
      } while (n == 0);
      if (n < 0) {
        return false;
      }
      limit = n;
      return true;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Reads to the end of the stream, keeping nothing; returns how many bytes were left. */
  long skipToEnd() {
    long skipped = 0;
    while (!atEnd()) {
      skipped += limit - pos;
      pos = limit;
    }
    return skipped;
  }

  /** True if no byte is left. */
  boolean atEnd() {
    return pos >= limit && !fill();
  }

  int readU8(String what) {
    if (pos >= limit && !fill()) {
      throw truncated(1, what);
    }
    return buf[pos++] & 0xFF;
  }

  int readI32(String what) {
    if (limit - pos >= 4) {
      int v =
          (buf[pos] & 0xFF)
              | (buf[pos + 1] & 0xFF) << 8
              | (buf[pos + 2] & 0xFF) << 16
              | (buf[pos + 3] & 0xFF) << 24;
      pos += 4;
      return v;
    }
    long start = position();
    int v = 0;
    for (int i = 0; i < 4; i++) {
      if (pos >= limit && !fill()) {
        throw new NetTraceFormatException(
            start, "stream ends inside 4-byte " + what + " (expected 4 bytes)");
      }
      v |= (buf[pos++] & 0xFF) << (8 * i);
    }
    return v;
  }

  void readFully(byte[] dst, int off, int len, String what) {
    long start = position();
    while (len > 0) {
      int n = transfer(dst, off, len);
      if (n < 0) {
        throw new NetTraceFormatException(
            start, "stream ends inside " + what + ": " + len + " more bytes expected");
      }
      off += n;
      len -= n;
    }
  }

  /**
   * Moves up to {@code room} bytes into {@code dst} at {@code off}: from the buffer, or straight
   * from the stream when the buffer is empty and {@code room} is at least its size. Returns how
   * many, or -1 at the end of the stream.
   */
  private int transfer(byte[] dst, int off, int room) {
    if (pos >= limit && room >= BUFFER_SIZE) {
      return direct(dst, off, room);
    }
    if (pos >= limit && !fill()) {
      return -1;
    }
    int n = Math.min(room, limit - pos);
    System.arraycopy(buf, pos, dst, off, n);
    pos += n;
    return n;
  }

  /**
   * Reads up to {@code len} bytes straight into {@code dst} (the buffer is empty): a block's bulk
   * is not copied twice. Returns how many, or -1 at the end of the stream.
   */
  private int direct(byte[] dst, int off, int len) {
    base += limit;
    pos = 0;
    limit = 0;
    try {
      int n;
      do {
        n = in.read(dst, off, len);
      } while (n == 0);
      if (n > 0) {
        base += n;
      }
      return n;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Reads exactly {@code size} bytes into {@code reuse} if it is big enough, else into a buffer
   * that grows as data arrives. Returns the array holding the bytes at index 0.
   */
  byte[] readBlock(byte[] reuse, int size, String what) {
    if (reuse != null && reuse.length >= size) {
      readFully(reuse, 0, size, what);
      return reuse;
    }
    return readBlockInto(null, size, what);
  }

  /**
   * Reads exactly {@code size} bytes into {@code into} if it is big enough, else into a buffer that
   * grows as data arrives; a block cut off is reported alike either way (as declared and present).
   */
  byte[] readBlockInto(byte[] into, int size, String what) {
    long start = position();
    byte[] dst =
        into != null && into.length >= size
            ? into
            : new byte[Math.min(size, INITIAL_BLOCK_CAPACITY)];
    int filled = 0;
    while (filled < size) {
      if (filled == dst.length) {
        dst = Arrays.copyOf(dst, (int) Math.min(size, dst.length * 2L));
      }
      int n = transfer(dst, filled, Math.min(size - filled, dst.length - filled));
      if (n < 0) {
        throw new NetTraceFormatException(
            start,
            "stream ends inside " + what + ": " + size + " bytes declared, " + filled + " present");
      }
      filled += n;
    }
    return dst;
  }

  void skip(long count, String what) {
    long start = position();
    while (count > 0) {
      if (pos >= limit && !fill()) {
        throw new NetTraceFormatException(
            start, "stream ends while skipping " + what + ": " + count + " more bytes expected");
      }
      int n = (int) Math.min(count, limit - pos);
      pos += n;
      count -= n;
    }
  }

  private NetTraceFormatException truncated(int bytes, String what) {
    return new NetTraceFormatException(
        position(), "stream ends where " + bytes + "-byte " + what + " was expected");
  }

  @Override
  public void close() {
    try {
      in.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
