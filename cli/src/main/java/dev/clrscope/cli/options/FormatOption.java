package dev.clrscope.cli.options;

import dev.clrscope.cli.render.OutputFormat;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Option;
import picocli.CommandLine.TypeConversionException;

/**
 * The {@code --format} of a command that returns a whole result (a listing, a report): table, one
 * JSON document, or CSV. Commands that stream records take {@link StreamFormatOption}, which adds
 * JSON Lines. A format a command does not offer is a usage error, never accepted and ignored.
 */
public class FormatOption {
  @Option(
      names = "--format",
      paramLabel = "FORMAT",
      defaultValue = "table",
      converter = Offered.class,
      completionCandidates = Offered.class,
      description = "Output format: ${COMPLETION-CANDIDATES} (default: ${DEFAULT-VALUE}).")
  OutputFormat format = OutputFormat.table;

  /** The chosen format. */
  public OutputFormat format() {
    return format;
  }

  /** The formats of a whole result. */
  public static final List<OutputFormat> OFFERED =
      List.of(OutputFormat.table, OutputFormat.json, OutputFormat.csv);

  /** Converts and completes {@code --format} with {@link #OFFERED}. */
  public static final class Offered implements ITypeConverter<OutputFormat>, Iterable<String> {
    @Override
    public OutputFormat convert(String value) {
      return parse(value, OFFERED);
    }

    @Override
    public Iterator<String> iterator() {
      return OFFERED.stream().map(Enum::name).iterator();
    }
  }

  /**
   * The format {@code value} names among {@code offered}; a format that exists but is not offered
   * says so, and which are.
   */
  public static OutputFormat parse(String value, List<OutputFormat> offered) {
    String names = String.join(", ", offered.stream().map(Enum::name).toList());
    for (OutputFormat f : offered) {
      if (f.name().equals(value)) {
        return f;
      }
    }
    for (OutputFormat f : OutputFormat.values()) {
      if (f.name().equals(value.toLowerCase(Locale.ROOT))) {
        throw new TypeConversionException(
            value
                + " is not offered here"
                + (f == OutputFormat.jsonl
                    ? " (JSON Lines is for commands that stream records)"
                    : "")
                + ": choose "
                + names);
      }
    }
    throw new TypeConversionException("expected one of " + names + ", got " + value);
  }

  /** The format named by {@code value} when this option offers it, else {@code null}. */
  public static OutputFormat offered(String value) {
    for (OutputFormat f : OFFERED) {
      if (f.name().equals(value)) {
        return f;
      }
    }
    return null;
  }
}
