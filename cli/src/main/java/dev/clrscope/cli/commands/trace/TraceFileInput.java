package dev.clrscope.cli.commands.trace;

import dev.clrscope.cli.CommandFailure;
import dev.clrscope.cli.output.IoErrors;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.monitor.session.EventConsumer;
import dev.clrscope.monitor.session.SavedTrace;
import dev.clrscope.monitor.session.SessionResult;
import dev.clrscope.monitor.session.StopSwitch;
import dev.clrscope.nettrace.EventTally;
import dev.clrscope.nettrace.InputFile;
import dev.clrscope.nettrace.NetTraceFormatException;
import dev.clrscope.nettrace.UnorderedVisit;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * A saved trace given to a command: the file checked, read once through {@link SavedTrace} (the one
 * reader of saved traces), and its problems said as the reading commands say them.
 */
public final class TraceFileInput {
  private TraceFileInput() {}

  /**
   * Feeds every event of a saved trace to {@code consumers}, as a live session would (then {@link
   * EventConsumer#streamEnded}), with the reading commands' error messages.
   */
  public static SessionResult feed(Path file, EventConsumer... consumers) {
    return read(file, trace -> trace.feed(consumers));
  }

  /** {@link #feed(Path, EventConsumer...)} until {@code stop} is asked. */
  public static SessionResult feed(Path file, StopSwitch stop, EventConsumer... consumers) {
    return read(file, trace -> trace.feed(stop, consumers));
  }

  /**
   * Opens a saved trace for {@code body}, which may read its header before feeding its events; a
   * file that is not a trace, or cannot be read, is a target error naming it.
   */
  public static <T> T read(Path file, Function<SavedTrace, T> body) {
    return reading(
        file,
        () -> {
          try (SavedTrace trace = SavedTrace.open(file)) {
            return body.apply(trace);
          }
        });
  }

  /**
   * Visits a saved trace's events unordered ({@link UnorderedVisit}, leniently: a truncated trace
   * up to its last whole block), for a command that only tallies them; errors as {@link #read}'s.
   */
  public static <T extends EventTally<T>> UnorderedVisit<T> visit(Path file, Supplier<T> tallies) {
    return reading(file, () -> UnorderedVisit.of(file, true, tallies));
  }

  private static <T> T reading(Path file, Supplier<T> body) {
    checkReadable(file);
    try {
      return body.get();
    } catch (NetTraceFormatException e) {
      throw new CommandFailure(file + " is not a trace clrscope can read: " + e.getMessage(), e);
    } catch (UncheckedIOException e) {
      throw new CommandFailure("could not read " + file + ": " + IoErrors.reason(e), e);
    }
  }

  /**
   * The warnings about how reading a trace ended, saying what was {@code done} with its events
   * ("counted"...): cut short, or bytes after its end marker.
   */
  public static List<String> warnings(SessionResult read, String done) {
    return warnings(read.truncation(), read.trailingBytes(), done);
  }

  /**
   * The warnings about how reading a trace ended: {@code truncation} (or null) where it was cut
   * short, {@code trailingBytes} after its end marker.
   */
  public static List<String> warnings(
      NetTraceFormatException truncation, long trailingBytes, String done) {
    List<String> warnings = new ArrayList<>();
    if (truncation != null) {
      warnings.add(
          "the trace is truncated ("
              + truncation.getMessage()
              + "); "
              + done
              + " everything before that point");
    }
    if (trailingBytes > 0) {
      warnings.add(
          Unit.count(trailingBytes)
              + " bytes after the trace's end marker were ignored: they are not part of the"
              + " trace (was something appended to the file?)");
    }
    return warnings;
  }

  /**
   * Fails with what {@code file} is, unless it is a regular file this user may read: the readers
   * take a whole file, not a stream from a FIFO or a device.
   */
  static void checkReadable(Path file) {
    try {
      InputFile.check(file);
    } catch (NoSuchFileException e) {
      throw new CommandFailure("no such file: " + file);
    } catch (InputFile.NotRegularFile e) {
      throw new CommandFailure(
          file + " is " + e.what() + ", not a regular file: give a saved .nettrace file");
    } catch (IOException e) {
      throw new CommandFailure("could not read " + file + ": " + IoErrors.reason(e), e);
    }
    if (!Files.isReadable(file)) {
      throw new CommandFailure("could not read " + file + ": permission denied");
    }
  }
}
