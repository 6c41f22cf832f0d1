package dev.clrscope.nettrace;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.Arrays;
import java.util.Locale;

/**
 * The one way clrscope opens a file it reads (traces, sidecar maps, the libraries they name,
 * .gcdump files, serve's token and rules): only a regular file, checked before it is opened, since
 * opening a FIFO blocks until someone writes to it and a device such as {@code /dev/zero} never
 * ends; and for a file read whole, a size cap, so that a wrong file is refused in one line instead
 * of filling the heap. The type is checked on the path (symbolic links followed) just before the
 * open: a file swapped for a FIFO in between could still block, which takes someone who can write
 * to the directory.
 */
public final class InputFile {
  private InputFile() {}

  /** A path that names something other than a regular file; the reason says what it is. */
  public static final class NotRegularFile extends FileSystemException {
    private static final long serialVersionUID = 1L;

    private final String what;

    NotRegularFile(Path file, String what) {
      super(file.toString(), null, "it is " + what + ", not a regular file");
      this.what = what;
    }

    /** What the path names instead: {@code a FIFO}, {@code a directory}, ... */
    public String what() {
      return what;
    }
  }

  /** A file larger than the caller reads whole; the reason gives the size and the cap. */
  public static final class TooLarge extends FileSystemException {
    private static final long serialVersionUID = 1L;

    TooLarge(Path file, long size, long cap) {
      super(
          file.toString(),
          null,
          String.format(
              Locale.ROOT,
              "it holds %s%,d bytes, more than the %,d this file may hold",
              size < 0 ? "over " : "",
              size < 0 ? cap : size,
              cap));
    }
  }

  /**
   * Fails unless {@code file} is a regular file (symbolic links followed): {@link NotRegularFile}
   * saying what it is, or the file system's own exception (no such file, permission denied).
   */
  public static void check(Path file) throws IOException {
    BasicFileAttributes a = Files.readAttributes(file, BasicFileAttributes.class);
    if (!a.isRegularFile()) {
      throw new NotRegularFile(file, kind(file, a));
    }
  }

  /** Opens a regular file for reading ({@link #check} first). */
  public static FileChannel open(Path file) throws IOException {
    check(file);
    return FileChannel.open(file, StandardOpenOption.READ);
  }

  /** A stream over a regular file ({@link #open}); unbuffered, as {@code Files.newInputStream}. */
  public static InputStream newInputStream(Path file) throws IOException {
    return Channels.newInputStream(open(file));
  }

  /**
   * The bytes of a regular file of at most {@code maxBytes}; a larger one (or one that grows past
   * the cap while read) is {@link TooLarge}, read no further than the cap.
   */
  public static byte[] readAllBytes(Path file, long maxBytes) throws IOException {
    try (FileChannel ch = open(file)) {
      long size = ch.size();
      if (size > maxBytes) {
        throw new TooLarge(file, size, maxBytes);
      }
      byte[] data = new byte[(int) Math.min(Math.max(size, 256), maxBytes + 1)];
      int n = 0;
      while (true) {
        if (n == data.length) {
          if (n > maxBytes) {
            throw new TooLarge(file, -1, maxBytes);
          }
          data = Arrays.copyOf(data, (int) Math.min((long) n * 2, maxBytes + 1));
        }
        int r = ch.read(ByteBuffer.wrap(data, n, data.length - n));
        if (r < 0) {
          break;
        }
        n += r;
      }
      if (n > maxBytes) {
        throw new TooLarge(file, -1, maxBytes);
      }
      return n == data.length ? data : Arrays.copyOf(data, n);
    }
  }

  /** The UTF-8 text of a regular file of at most {@code maxBytes} ({@link #readAllBytes}). */
  public static String readString(Path file, long maxBytes) throws IOException {
    return new String(readAllBytes(file, maxBytes), StandardCharsets.UTF_8);
  }

  /** What a path that is no regular file is, in a user's words. */
  private static String kind(Path file, BasicFileAttributes a) {
    if (a.isDirectory()) {
      return "a directory";
    }
    try {
      int type = (Integer) Files.getAttribute(file, "unix:mode") & 0170000;
      switch (type) {
        case 0010000:
          return "a FIFO";
        case 0020000:
          return "a character device";
        case 0060000:
          return "a block device";
        case 0140000:
          return "a socket";
        default:
          break;
      }
    } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
      // No unix view here: the generic words below.
    }
    return "a device, FIFO or socket";
  }
}
