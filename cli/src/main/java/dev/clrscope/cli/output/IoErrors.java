package dev.clrscope.cli.output;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;

/**
 * Why an I/O operation failed, in the words a user needs. The JDK's file exceptions carry the path
 * as their message and the operating system's reason apart, so "could not write X: " + message
 * would say the path twice and never why.
 */
public final class IoErrors {
  private IoErrors() {}

  /** The reason: "No space left on device", "permission denied", "no such file or directory"… */
  public static String reason(IOException e) {
    if (e instanceof NoSuchFileException) {
      return "no such file or directory";
    }
    if (e instanceof AccessDeniedException) {
      return "permission denied";
    }
    if (e instanceof FileAlreadyExistsException) {
      return "it already exists";
    }
    if (e instanceof NotDirectoryException) {
      return "not a directory";
    }
    if (e instanceof FileSystemException fs && fs.getReason() != null) {
      return fs.getReason();
    }
    return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }

  /** The reason of an unchecked wrapper's cause. */
  public static String reason(UncheckedIOException e) {
    return reason(e.getCause());
  }
}
