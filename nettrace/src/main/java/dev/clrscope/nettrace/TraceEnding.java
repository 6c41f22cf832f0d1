package dev.clrscope.nettrace;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The end of a trace, and how to give one back to a trace that was cut off (the target died, a
 * rundown was abandoned): truncate it after its last whole object ({@link
 * NetTraceReader#completeBytes()}) and append the end marker the runtime writes when a session
 * ends.
 *
 * <pre>
 *  V3-V5:  ... object End(6) | NullReference(1)
 *  V6:     ... block        | u32 0  (block header: kind 0 EndOfStream, size 0)
 * </pre>
 */
public final class TraceEnding {
  private TraceEnding() {}

  /** The bytes that end a stream of this format version (3 to 6). */
  public static byte[] marker(int formatVersion) {
    if (formatVersion >= 6) {
      byte[] header = new byte[4];
      int h = BlockKind.END_OF_STREAM.v6Code() << 24;
      header[3] = (byte) (h >>> 24);
      return header;
    }
    return new byte[] {(byte) FastSerializationTag.NULL_REFERENCE.code};
  }

  /**
   * Truncates {@code file} to {@code completeBytes} and appends the end marker, on disk before it
   * returns.
   *
   * @param completeBytes {@link NetTraceReader#completeBytes()} of a reader over the same bytes
   * @param formatVersion the stream's format version, {@link TraceHeader#formatVersion()}
   */
  public static void endAt(Path file, long completeBytes, int formatVersion) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.truncate(completeBytes);
      ch.position(completeBytes);
      ByteBuffer marker = ByteBuffer.wrap(marker(formatVersion));
      while (marker.hasRemaining()) {
        ch.write(marker);
      }
      ch.force(true);
    }
  }

  /**
   * Reads a whole trace file strictly, to prove it parses.
   *
   * @return its number of events
   * @throws NetTraceFormatException if it does not parse
   */
  public static long countEvents(Path file) {
    long events = 0;
    try (NetTraceReader r = NetTraceReader.open(file)) {
      while (r.next() != null) {
        events++;
      }
    }
    return events;
  }
}
