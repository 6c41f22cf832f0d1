package dev.clrscope.cli.options;

import java.nio.file.Path;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParseResult;

/**
 * The {@code -v/--verbose} and {@code --log-file} options of every command (a mixin of every
 * subcommand's base class and of the top-level command): clrscope's own logs, off by default.
 */
public final class LoggingOptions {
  static final String VERBOSE = "--verbose";
  static final String LOG_FILE = "--log-file";

  @Option(
      names = {"-v", VERBOSE},
      description =
          "Log what clrscope does (discovery, connections, each diagnostic command and its reply,"
              + " trace parsing) to stderr.")
  boolean verbose;

  @Option(
      names = LOG_FILE,
      paramLabel = "FILE",
      description =
          "Append the same log to FILE, with full timestamps and thread names, and any failure"
              + " with its stack trace.")
  Path logFile;

  /** Whether {@code -v} was given. */
  public boolean verbose() {
    return verbose;
  }

  /** The log file, or {@code null}. */
  public Path logFile() {
    return logFile;
  }

  /**
   * What a command line asks for, wherever on it the options were given ({@code clrscope -v trace
   * collect ...} or {@code clrscope trace collect -v ...}); the last {@code --log-file} wins.
   *
   * @param verbose whether {@code -v} was given
   * @param logFile the log file, or {@code null}
   */
  public record Request(boolean verbose, Path logFile) {
    /** Whether any log was asked for. */
    public boolean any() {
      return verbose || logFile != null;
    }
  }

  /** What the parsed command line asks for, from the top command down to the one that runs. */
  public static Request requested(ParseResult parsed) {
    boolean verbose = false;
    Path logFile = null;
    for (ParseResult p = parsed; p != null; p = p.subcommand()) {
      verbose |= p.hasMatchedOption(VERBOSE);
      logFile = p.matchedOptionValue(LOG_FILE, logFile);
    }
    return new Request(verbose, logFile);
  }
}
