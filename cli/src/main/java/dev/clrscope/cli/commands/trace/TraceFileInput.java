package dev.clrscope.cli.commands.trace;

import dev.clrscope.cli.CommandFailure;
import dev.clrscope.cli.output.IoErrors;
import dev.clrscope.monitor.session.EventConsumer;
import dev.clrscope.nettrace.InputFile;
import dev.clrscope.nettrace.NetTraceFormatException;
import dev.clrscope.nettrace.NetTraceReader;
import dev.clrscope.nettrace.TraceEvent;
import dev.clrscope.symbols.FrameResolver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** Opens a trace file for the reading commands, with their error messages. */
public final class TraceFileInput {
  private TraceFileInput() {}

  /**
   * How reading a trace ended, beyond its events.
   *
   * @param truncatedAt where and why the trace was cut short, or {@code null} if it is whole
   * @param trailingBytes bytes found after the trace's end marker
   */
  public record ReadEnding(String truncatedAt, long trailingBytes) {
    /** What {@code reader} met at its end. */
    static ReadEnding of(NetTraceReader reader) {
      return new ReadEnding(
          reader.stopReason().map(Throwable::getMessage).orElse(null), reader.trailingBytes());
    }

    /** The warnings to give, saying what was {@code done} with the events ("counted"...). */
    public List<String> warnings(String done) {
      List<String> warnings = new ArrayList<>();
      if (truncatedAt != null) {
        warnings.add(
            "the trace is truncated ("
                + truncatedAt
                + "); "
                + done
                + " everything before that point");
      }
      if (trailingBytes > 0) {
        warnings.add(
            String.format(
                Locale.ROOT,
                "%,d bytes after the trace's end marker were ignored: they are not part of the"
                    + " trace (was something appended to the file?)",
                trailingBytes));
      }
      return warnings;
    }
  }

  /**
   * What feeding a whole trace to consumers found.
   *
   * @param spanNanos the time from the first event to the last
   * @param ending how the reading ended
   */
  public record Fed(long spanNanos, ReadEnding ending) {}

  /**
   * Feeds every event of a saved trace to {@code consumers}, as a live session would (global order,
   * then {@link EventConsumer#streamEnded()}), with the reading commands' error messages.
   */
  public static Fed feed(Path file, EventConsumer... consumers) {
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;
    ReadEnding ending;
    try (NetTraceReader r = open(file)) {
      TraceEvent e;
      while ((e = r.next()) != null) {
        first = Math.min(first, e.relativeNanos());
        last = Math.max(last, e.relativeNanos());
        for (EventConsumer c : consumers) {
          c.accept(e);
        }
      }
      ending = ReadEnding.of(r);
    } catch (UncheckedIOException e) {
      throw new CommandFailure("could not read " + file + ": " + IoErrors.reason(e), e);
    } catch (NetTraceFormatException e) {
      throw new CommandFailure(file + " is not a trace clrscope can read: " + e.getMessage(), e);
    }
    for (EventConsumer c : consumers) {
      c.streamEnded();
    }
    return new Fed(first == Long.MAX_VALUE ? 0 : last - first, ending);
  }

  /**
   * A lenient reader: a truncated trace yields its complete blocks; the caller reports the rest.
   */
  public static NetTraceReader open(Path file) {
    checkReadable(file);
    try {
      return NetTraceReader.open(file, true);
    } catch (NetTraceFormatException e) {
      throw new CommandFailure(file + " is not a trace clrscope can read: " + e.getMessage(), e);
    } catch (UncheckedIOException e) {
      throw new CommandFailure("could not read " + file + ": " + IoErrors.reason(e), e);
    }
  }

  /**
   * The frame names of a saved trace ({@link FrameResolver#forTrace}: its method events, its maps
   * sidecar), with the reading commands' error messages for a trace that cannot be read.
   */
  public static FrameResolver frames(Path file, boolean signatures) {
    checkReadable(file);
    try {
      return FrameResolver.forTrace(file, signatures);
    } catch (NetTraceFormatException e) {
      throw new CommandFailure(file + " is not a trace clrscope can read: " + e.getMessage(), e);
    } catch (UncheckedIOException e) {
      throw new CommandFailure("could not read " + file + ": " + IoErrors.reason(e), e);
    }
  }

  /**
   * Fails with what {@code file} is, unless it is a regular file this user may read: the readers
   * take a whole file (conversion reads it twice), not a stream from a FIFO or a device.
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
