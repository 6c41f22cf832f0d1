package dev.clrscope.cli.render;

/** How a command prints its data on stdout: the one list of output formats. */
public enum OutputFormat {
  /** Aligned columns for a person at a terminal. */
  table,
  /** One JSON document. */
  json,
  /** JSON Lines: one object per record as it comes (commands that stream records). */
  jsonl,
  /** RFC 4180 CSV with a header row: one table. */
  csv
}
