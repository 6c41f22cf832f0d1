package dev.clrscope.cli.options;

import picocli.CommandLine.Option;

/** The {@code --format} option of every command that prints a table. */
public final class FormatOption {
  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      defaultValue = "table",
      description = "Output format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
  OutputFormat format = OutputFormat.table;

  /** The chosen format. */
  public OutputFormat format() {
    return format;
  }
}
