package dev.clrscope.cli.commands.trace;

import dev.clrscope.cli.CommandFailure;
import dev.clrscope.cli.output.IoErrors;
import dev.clrscope.nettrace.NetTraceFormatException;
import dev.clrscope.nettrace.NetTraceReader;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Opens a trace file for the reading commands, with their error messages. */
final class TraceFileInput {
  private TraceFileInput() {}

  /**
   * A lenient reader: a truncated trace yields its complete blocks; the caller reports the rest.
   */
  static NetTraceReader open(Path file) {
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
   * Fails with what {@code file} is, unless it is a regular file this user may read: the readers
   * take a whole file (conversion reads it twice), not a stream from a FIFO or a device.
   */
  static void checkReadable(Path file) {
    if (Files.isDirectory(file)) {
      throw new CommandFailure(file + " is a directory: give a .nettrace file");
    }
    if (!Files.exists(file)) {
      throw new CommandFailure("no such file: " + file);
    }
    if (!Files.isRegularFile(file)) {
      throw new CommandFailure(
          file
              + " is not a regular file (a device, FIFO or socket): save the trace to a file"
              + " first");
    }
    if (!Files.isReadable(file)) {
      throw new CommandFailure("could not read " + file + ": permission denied");
    }
  }
}
