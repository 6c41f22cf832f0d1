package dev.clrscope.cli.options;

import dev.clrscope.cli.render.OutputFormat;
import java.util.Iterator;
import java.util.List;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;

/**
 * The {@code --format} of a command that streams records as they come (the monitors, {@code
 * gcstats}, {@code trace events}): a table, one JSON document (valid however the stream ends), JSON
 * Lines (one object per record, flushed as it comes), or CSV.
 */
public final class StreamFormatOption {
  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      defaultValue = "table",
      converter = Offered.class,
      completionCandidates = Offered.class,
      description =
          "Output format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}); json is one"
              + " document, jsonl one object per line as records come.")
  OutputFormat format = OutputFormat.table;

  /** The chosen format. */
  public OutputFormat format() {
    return format;
  }

  /** The formats of a stream. */
  public static final List<OutputFormat> OFFERED = List.of(OutputFormat.values());

  /** Converts and completes {@code --format} with {@link #OFFERED}. */
  public static final class Offered implements ITypeConverter<OutputFormat>, Iterable<String> {
    @Override
    public OutputFormat convert(String value) {
      return FormatOption.parse(value, OFFERED);
    }

    @Override
    public Iterator<String> iterator() {
      return OFFERED.stream().map(Enum::name).iterator();
    }
  }
}
