package dev.clrscope.symbols;

/**
 * A frame as every command prints it: its name ({@link FrameResolver}) and, when the method's PDB
 * and IL-to-native map are known, its source line.
 *
 * @param name the frame's name, never blank
 * @param line where in the source, or null
 */
public record Frame(String name, SourceLine line) {
  /** A frame without a line. */
  public static Frame of(String name) {
    return new Frame(name, null);
  }

  /** The document's path, or null. */
  public String file() {
    return line == null ? null : line.file();
  }

  /** The line number, or null. */
  public Integer lineNumber() {
    return line == null ? null : line.line();
  }

  /** {@code Namespace.Type.Method (Program.cs:42)}, or the name alone. */
  public String text() {
    return line == null ? name : name + " (" + line.text() + ")";
  }

  @Override
  public String toString() {
    return text();
  }

  // Written out: see SourceLine.
  @Override
  public boolean equals(Object o) {
    return o instanceof Frame f && f.name.equals(name) && java.util.Objects.equals(f.line, line);
  }

  @Override
  public int hashCode() {
    return name.hashCode() * 31 + (line == null ? 0 : line.hashCode());
  }
}
