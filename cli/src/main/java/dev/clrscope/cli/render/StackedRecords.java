package dev.clrscope.cli.render;

import dev.clrscope.cli.options.OutputFormat;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A live stream of records that may carry call stacks (the monitors' rows): each record as its
 * format writes it, in a table followed by its frames ({@code at …}, one a line) when stacks were
 * asked for (JSON and CSV carry them as a field), and the summary at the end.
 *
 * @param <R> the record type
 */
public final class StackedRecords<R> {
  private final PrintStream out;
  private final PrintStream err;
  private final RecordStream<R> records;
  private final Function<R, List<String>> stack;
  private final boolean framesUnderRows;

  /**
   * A stream on {@code out} (a CSV's summary goes to {@code err}).
   *
   * @param stack a record's frames, innermost first; shown under a table's rows when {@code stacks}
   */
  public StackedRecords(
      PrintStream out,
      PrintStream err,
      OutputFormat format,
      RecordSchema<R> schema,
      boolean stacks,
      Function<R, List<String>> stack) {
    this.out = out;
    this.err = err;
    this.records = new RecordStream<>(out, schema, RecordStream.streaming(format));
    this.stack = stack;
    this.framesUnderRows = stacks && format == OutputFormat.table;
  }

  /** Prints the header now, so a watcher sees the columns before the first row. */
  public void header() {
    records.start();
  }

  /** Prints one record (and its frames, in a table with stacks). */
  public void write(R r) {
    records.write(r);
    if (framesUnderRows) {
      stack.apply(r).forEach(frame -> out.println("    at " + frame));
      out.flush();
    }
  }

  /** Prints the summary: see {@link RecordStream#summary}. */
  public void summary(
      Map<String, Object> object, String stoppedBecause, Consumer<PrintStream> lines) {
    records.summary(object, stoppedBecause, err, lines);
  }

  /**
   * A summary's first line, {@code Watched 12.3 s (stopped: the target exited)}, its value at
   * column {@code valueColumn} to line up with the summary's other labels.
   */
  public static String watchedLine(int valueColumn, long observedNanos, String stoppedBecause) {
    return String.format(
        Locale.ROOT,
        "%-" + valueColumn + "s%.1f s%s",
        "Watched",
        observedNanos / 1e9,
        stoppedBecause == null ? "" : " (stopped: " + stoppedBecause + ")");
  }
}
