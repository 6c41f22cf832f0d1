package dev.clrscope.symbols;

/**
 * Where a frame's code is in its source: the document as the PDB names it (a full path as the
 * compiler saw it, {@code /src/app/Program.cs}) and the line.
 *
 * @param file the document's path
 * @param line the line, from 1
 */
public record SourceLine(String file, int line) {
  /** The document's file name, its last path segment (either separator). */
  public String fileName() {
    return fileName(file);
  }

  /** A path's last segment, whichever separator it uses (a PDB written on Windows has '\\'). */
  static String fileName(String path) {
    int slash = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
    return path.substring(slash + 1);
  }

  /** How a person reads it beside a method: {@code Program.cs:42}. */
  public String text() {
    return fileName() + ":" + line;
  }

  // Written out: a record's generated equals and hashCode link a bootstrap method on first use,
  // tens of milliseconds of a command that counts frames by line.
  @Override
  public boolean equals(Object o) {
    return o instanceof SourceLine l && l.line == line && l.file.equals(file);
  }

  @Override
  public int hashCode() {
    return file.hashCode() * 31 + line;
  }
}
