package dev.clrscope.cli.output;

import dev.clrscope.cli.CommandFailure;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.SecureRandom;
import java.util.HexFormat;

/**
 * Writes a file whole or not at all, and never writes where it should not.
 *
 * <pre>
 *  OUT is a regular file, or absent:  write DIR/.OUT.RANDOM.partial (created exclusively: an
 *                                      existing file or link there is never followed), then
 *                                      rename it over OUT; on any failure delete it
 *  OUT is a device, FIFO, socket:      write OUT in place (renaming would replace the node)
 *  OUT is a directory:                 refuse
 * </pre>
 *
 * Every write, the flush and the close are checked: a full disk or a read-only directory is a
 * {@link CommandFailure} that names the file and the reason, never a success.
 */
public final class OutputFile {
  private static final SecureRandom RANDOM = new SecureRandom();

  /** What writes the content. */
  @FunctionalInterface
  public interface Content<T> {
    /** Writes everything to {@code out} (buffered; closed by the caller) and says what it wrote. */
    T writeTo(OutputStream out) throws IOException;
  }

  private OutputFile() {}

  /**
   * Fails, before any work, when {@code file} could not be written: a directory, a directory that
   * does not exist or that this user may not write into. A command checks its outputs with this
   * before it touches its target (a heap walk forces a full GC; a trace runs for minutes), so that
   * a mistyped path costs nothing.
   *
   * @param option the option that named it ({@code -o}), for the message
   */
  public static void check(Path file, String option) {
    BasicFileAttributes existing = attributes(file);
    if (existing != null && existing.isDirectory()) {
      throw new CommandFailure(
          "could not write " + file + ": it is a directory; choose another " + option);
    }
    Path dir = file.toAbsolutePath().getParent();
    if (dir == null || existing != null && !existing.isRegularFile()) {
      return;
    }
    if (!Files.isDirectory(dir)) {
      throw new CommandFailure(
          "the directory " + dir + " does not exist: create it or choose another " + option);
    }
    if (!Files.isWritable(dir)) {
      throw new CommandFailure(
          "could not write "
              + file
              + ": permission denied on "
              + dir
              + "; choose another "
              + option);
    }
  }

  /**
   * Writes {@code file} with {@code content}.
   *
   * @return what the content returned
   * @throws CommandFailure naming the file and why, if it could not be written whole
   */
  public static <T> T write(Path file, Content<T> content) {
    BasicFileAttributes existing = attributes(file);
    if (existing != null && existing.isDirectory()) {
      throw new CommandFailure("could not write " + file + ": it is a directory");
    }
    if (existing != null && !existing.isRegularFile()) {
      return inPlace(file, content);
    }
    Path dir = file.toAbsolutePath().getParent();
    byte[] random = new byte[6];
    RANDOM.nextBytes(random);
    Path partial =
        dir.resolve("." + file.getFileName() + "." + HexFormat.of().formatHex(random) + ".partial");
    T result;
    try (OutputStream out =
        new BufferedOutputStream(
            Files.newOutputStream(partial, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE),
            1 << 16)) {
      result = content.writeTo(out);
    } catch (IOException e) {
      deleteQuietly(partial);
      throw failure(file, e);
    } catch (RuntimeException e) {
      deleteQuietly(partial);
      throw e;
    }
    try {
      Files.move(partial, file, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      deleteQuietly(partial);
      throw failure(file, e);
    }
    return result;
  }

  private static <T> T inPlace(Path file, Content<T> content) {
    try (OutputStream out =
        new BufferedOutputStream(
            Files.newOutputStream(
                file, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING),
            1 << 16)) {
      return content.writeTo(out);
    } catch (IOException e) {
      throw failure(file, e);
    }
  }

  /** The failure to report when writing {@code file} failed. */
  public static CommandFailure failure(Path file, IOException e) {
    return new CommandFailure("could not write " + file + ": " + IoErrors.reason(e), e);
  }

  private static BasicFileAttributes attributes(Path file) {
    try {
      return Files.readAttributes(file, BasicFileAttributes.class);
    } catch (IOException e) {
      return null;
    }
  }

  private static void deleteQuietly(Path p) {
    try {
      Files.deleteIfExists(p);
    } catch (IOException e) {
      // Best effort: the failure being reported matters more.
    }
  }
}
