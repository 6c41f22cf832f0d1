package dev.clrscope.heapwalk;

/**
 * A .gcdump file that is not what its format says: truncated, corrupt, or of an unknown version.
 */
public final class GcDumpFormatException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final long offset;

  /** A problem at byte {@code offset} of the file. */
  public GcDumpFormatException(long offset, String problem) {
    super("at offset " + offset + ": " + problem);
    this.offset = offset;
  }

  /** The byte offset in the file where reading failed. */
  public long offset() {
    return offset;
  }
}
