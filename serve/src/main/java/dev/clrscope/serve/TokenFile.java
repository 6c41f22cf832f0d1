package dev.clrscope.serve;

import dev.clrscope.nettrace.InputFile;
import java.io.IOException;
import java.nio.file.FileSystemException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Reads {@code serve --token-file}: a regular file of one line, at most {@value #MAX_BYTES} bytes,
 * that only its owner may use, owned by serve's user (or root), as ssh asks of a private key. A
 * token others can read is no secret: anyone on the host could call the artifact endpoints.
 */
public final class TokenFile {
  /** A token is a line; a file larger than this is not one. */
  public static final int MAX_BYTES = 4096;

  private TokenFile() {}

  /** A token file that cannot be used; the message says why and what to do. */
  public static final class Unusable extends Exception {
    private static final long serialVersionUID = 1L;

    Unusable(String message) {
      super(message);
    }
  }

  /** The token in {@code file}. */
  public static String read(Path file) throws Unusable {
    String text;
    try {
      text = InputFile.readString(file, MAX_BYTES);
    } catch (NoSuchFileException e) {
      throw new Unusable("cannot read the token file " + file + ": no such file");
    } catch (FileSystemException e) {
      throw new Unusable(
          "cannot read the token file "
              + file
              + ": "
              + (e.getReason() == null ? e.toString() : e.getReason()));
    } catch (IOException e) {
      throw new Unusable("cannot read the token file " + file + ": " + e.getMessage());
    }
    checkPrivate(file);
    String t = text.strip();
    if (t.isEmpty() || t.contains("\n")) {
      throw new Unusable(
          "the token file "
              + file
              + " must hold one line, the token; it holds "
              + (t.isEmpty() ? "nothing" : "several lines"));
    }
    return t;
  }

  /** Refuses a file that others may use, or that another user owns. */
  private static void checkPrivate(Path file) throws Unusable {
    String open;
    try {
      open = OwnerOnly.openToOthers(file);
    } catch (IOException | UnsupportedOperationException e) {
      // No POSIX permissions here (not Linux): nothing to check against.
      return;
    }
    if (open != null) {
      throw new Unusable(
          "the token file "
              + file
              + " is open to others ("
              + open
              + "): anyone on this host could read the token; chmod 600 it");
    }
    int owner = OwnerOnly.uid(file);
    int self = OwnerOnly.self();
    if (self >= 0 && owner >= 0 && owner != self && owner != 0) {
      throw new Unusable(
          "the token file "
              + file
              + " belongs to uid "
              + owner
              + ", not to serve's user (uid "
              + self
              + "): that user could change the token; use a file of your own");
    }
  }
}
