package dev.clrscope.symbols;

/**
 * An assembly or a portable PDB whose bytes are not what their headers claim (a length past the
 * end, a bad magic, a table that does not fit): the file is not used, and the message says where it
 * went wrong, for the one warning the frames of its module get.
 */
public final class PdbFormatException extends Exception {
  private static final long serialVersionUID = 1L;

  public PdbFormatException(String message) {
    super(message);
  }
}
