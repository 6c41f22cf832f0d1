package dev.clrscope.monitor.trace;

import dev.clrscope.monitor.session.SessionRequest;
import dev.clrscope.monitor.session.SessionResult;
import dev.clrscope.nettrace.NetTraceFormatException;
import dev.clrscope.nettrace.TraceEnding;
import dev.clrscope.symbols.ProcessMaps;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A trace recorded to a file, the one way {@code trace collect} and {@code serve}'s {@code /trace}
 * record: the session they ask for ({@link #request}), and the file made a whole trace at the end
 * ({@link #complete}): a stream cut off (the target exited, the rundown was abandoned, the
 * connection broke while stopping) keeps every whole block and gets the format's end marker.
 */
public final class TraceRecording {
  private TraceRecording() {}

  /**
   * The session that records {@code plan} into {@code out}: every byte written as it arrives, for
   * {@code duration} (or until stopped), the rundown given up to {@code rundownLimit}.
   *
   * @param lossless whether the runtime blocks rather than drops events when its buffer is full
   * @param readerName the name of the session's reader thread
   */
  public static SessionRequest request(
      SessionPlan plan,
      int bufferMb,
      boolean lossless,
      Duration duration,
      Duration rundownLimit,
      OutputStream out,
      String readerName) {
    return SessionRequest.of(plan.toConfig(bufferMb, lossless), readerName)
        .withDuration(duration)
        .withDrainTimeout(rundownLimit)
        .withRecording(out);
  }

  /**
   * What became of the recording.
   *
   * @param repaired whether the stream was cut off and the file ended at its last whole block
   * @param keptBytes the file's size
   * @param events the events it holds
   */
  public record Ending(boolean repaired, long keptBytes, long events) {}

  /**
   * The target's memory maps for a trace's sidecar ({@link ProcessMaps#sidecarOf}), which names its
   * native frames later: taken as the recording starts and again as it ends (a library loaded
   * meanwhile is named), the last one that could be read kept. {@code trace collect} and {@code
   * serve}'s traces take them here.
   */
  public static final class Maps {
    private final long pid;
    private volatile String text;

    /** For process {@code pid} (0 or less: none, a runtime reached through a port). */
    public Maps(long pid) {
      this.pid = pid;
    }

    /** Reads the maps now; kept unless they cannot be read (the process is gone). */
    public void take() {
      String now = pid > 0 ? ProcessMaps.snapshot(pid) : null;
      if (now != null) {
        text = now;
      }
    }

    /**
     * Writes the last maps taken beside {@code trace}; failing costs native names only.
     *
     * @return the sidecar written, or null
     */
    public Path writeBeside(Path trace) {
      String t = text;
      return t != null && ProcessMaps.writeSidecar(trace, t) ? ProcessMaps.sidecarOf(trace) : null;
    }
  }

  /** The session ended before the runtime sent the trace header: the file holds no trace. */
  public static final class NothingRecorded extends Exception {
    private static final long serialVersionUID = 1L;

    NothingRecorded(String message) {
      super(message);
    }
  }

  /**
   * Ends {@code file}, the recording of the session that ended as {@code result}.
   *
   * @throws NothingRecorded if no header came
   * @throws IOException if the file cannot be cut and ended
   * @throws NetTraceFormatException if the repaired file does not parse (a bug)
   */
  public static Ending complete(Path file, SessionResult result)
      throws NothingRecorded, IOException {
    if (result.reachedEnd()) {
      return new Ending(false, result.bytes(), result.events());
    }
    if (result.header() == null) {
      throw new NothingRecorded(
          "the session ended before the runtime sent the trace header"
              + (result.streamError() != null
                  ? " (" + result.streamError().getMessage() + ")"
                  : ""));
    }
    int version = result.header().formatVersion();
    TraceEnding.endAt(file, result.completeBytes(), version);
    return new Ending(
        true,
        result.completeBytes() + TraceEnding.marker(version).length,
        TraceEnding.countEvents(file));
  }
}
