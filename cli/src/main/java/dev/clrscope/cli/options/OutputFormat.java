package dev.clrscope.cli.options;

/** How a command prints its data on stdout. */
public enum OutputFormat {
  /** Aligned columns for a person at a terminal. */
  table,
  /** One JSON document (JSON Lines for streaming commands). */
  json,
  /** RFC 4180 CSV with a header row. */
  csv
}
