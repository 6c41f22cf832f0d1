package dev.clrscope.cli.commands.trace;

import dev.clrscope.nettrace.NetTraceReader;
import dev.clrscope.nettrace.TraceEvent;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * Makes a trace that was cut off valid again: it is truncated after its last complete object and
 * given the NullReference end tag, exactly what the runtime writes at the end of a session.
 */
public final class TraceFileRepair {
  private TraceFileRepair() {}

  /**
   * Truncates {@code file} to {@code boundary} bytes and appends the end tag.
   *
   * @param boundary the offset just after the last complete object (see {@link
   *     BlockBoundaryTracker#lastCompleteObjectEnd()})
   */
  public static void endAt(Path file, long boundary) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      ch.truncate(boundary);
      ch.position(boundary);
      ch.write(ByteBuffer.wrap(new byte[] {1}));
      ch.force(true);
    }
  }

  /**
   * Reads the whole file strictly, to prove a repaired trace parses.
   *
   * @return the number of events
   * @throws dev.clrscope.nettrace.NetTraceFormatException if it does not
   */
  public static long verify(Path file) {
    long events = 0;
    try (NetTraceReader r = NetTraceReader.open(file)) {
      TraceEvent e;
      while ((e = r.next()) != null) {
        events++;
      }
    }
    return events;
  }
}
