package dev.clrscope.cli.options;

import java.time.Duration;
import picocli.CommandLine.Option;

/** The {@code --duration} option of every command that runs until stopped. */
public final class DurationOption {
  @Option(
      names = "--duration",
      paramLabel = "DURATION",
      converter = DurationParser.class,
      defaultValue = DurationParser.UNTIL_STOPPED,
      description =
          "Stop after this long: 30s, 1m30s, 500ms, 2h, 1d, or as dotnet-trace takes it:"
              + " hh:mm:ss, d.hh:mm:ss, dd:hh:mm:ss (a bare number is refused: dotnet-trace reads"
              + " it as days)"
              + " (default: ${DEFAULT-VALUE}).")
  Duration duration;

  /** The limit, or {@code null} for none. */
  public Duration duration() {
    return duration;
  }
}
