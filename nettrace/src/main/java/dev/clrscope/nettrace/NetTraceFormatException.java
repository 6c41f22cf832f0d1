package dev.clrscope.nettrace;

/**
 * The single exception type for corrupt, truncated or unsupported trace input.
 *
 * <p>Unchecked, because a caller can rarely do anything about a bad byte except stop; the message
 * always names the absolute byte offset in the stream and what the parser expected there. I/O
 * failures of the underlying stream are not format errors and surface as {@link
 * java.io.UncheckedIOException}.
 */
public final class NetTraceFormatException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final long offset;
  private final String problem;

  /**
   * @param offset absolute offset in the stream where the problem was found
   * @param problem what was expected and what was found instead
   */
  public NetTraceFormatException(long offset, String problem) {
    super("at offset " + offset + " (0x" + Long.toHexString(offset) + "): " + problem);
    this.offset = offset;
    this.problem = problem;
  }

  /** What was expected and found, without the offset prefix of the message. */
  public String problem() {
    return problem;
  }

  /** Absolute byte offset in the stream where the problem was detected. */
  public long offset() {
    return offset;
  }
}
