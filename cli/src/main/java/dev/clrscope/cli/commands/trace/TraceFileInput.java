package dev.clrscope.cli.commands.trace;

import dev.clrscope.cli.CommandFailure;
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
    if (!Files.isRegularFile(file)) {
      throw new CommandFailure("no such file: " + file);
    }
    try {
      return NetTraceReader.open(file, true);
    } catch (NetTraceFormatException e) {
      throw new CommandFailure(file + " is not a trace clrscope can read: " + e.getMessage(), e);
    } catch (UncheckedIOException e) {
      throw new CommandFailure("could not read " + file + ": " + e.getCause().getMessage(), e);
    }
  }
}
