package dev.clrscope.cli.render;

import dev.clrscope.cli.options.OutputFormat;
import java.io.PrintStream;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Writes records as they come, in one of four forms, each record printed and flushed at once:
 *
 * <pre>
 *  TABLE          heading line, then one fixed-width line per record
 *  JSON_LINES     one object per line
 *  CSV            header of keys, then one RFC 4180 line per record
 *  JSON_DOCUMENT  {head members..., "MEMBER":[ record, record, ... ], tail members...}
 * </pre>
 *
 * The JSON document stays valid however the stream ends, as long as {@link #finish} runs.
 *
 * @param <R> the record type
 */
public final class RecordStream<R> {
  /** The forms a stream of records takes. */
  public enum Form {
    TABLE,
    JSON_LINES,
    CSV,
    JSON_DOCUMENT
  }

  private final PrintStream out;
  private final RecordSchema<R> schema;
  private final Form form;
  private final boolean flushEach;
  private boolean started;
  private boolean first = true;
  private long written;

  /** A stream of records to {@code out}, each flushed as it is written: for live output. */
  public RecordStream(PrintStream out, RecordSchema<R> schema, Form form) {
    this(out, schema, form, true);
  }

  /**
   * A stream of records to {@code out}.
   *
   * @param flushEach flush after every record (a live session, watched as it happens); false for
   *     output read as a whole, such as the decoded events of a file, flushed by {@link #finish}
   */
  public RecordStream(PrintStream out, RecordSchema<R> schema, Form form, boolean flushEach) {
    this.out = out;
    this.schema = schema;
    this.form = form;
    this.flushEach = flushEach;
  }

  /** The form a whole-report command's {@code --format} means: JSON is one document. */
  public static Form document(OutputFormat format) {
    return switch (format) {
      case json -> Form.JSON_DOCUMENT;
      case csv -> Form.CSV;
      default -> Form.TABLE;
    };
  }

  /** The form a streaming command's {@code --format} means: JSON is JSON Lines. */
  public static Form streaming(OutputFormat format) {
    return switch (format) {
      case json -> Form.JSON_LINES;
      case csv -> Form.CSV;
      default -> Form.TABLE;
    };
  }

  /**
   * Writes one record on its own: a line per field (table), one object (JSON), or the header and
   * one line (CSV).
   */
  public static <R> void single(
      PrintStream out, RecordSchema<R> schema, OutputFormat format, R record) {
    switch (format) {
      case json -> out.println(schema.appendJson(new StringBuilder(), record));
      case csv -> {
        out.println(schema.csvHeader());
        out.println(schema.csvRow(record));
      }
      default -> schema.recordLines(record).forEach(out::println);
    }
    out.flush();
  }

  /** The form. */
  public Form form() {
    return form;
  }

  /** The schema. */
  public RecordSchema<R> schema() {
    return schema;
  }

  /**
   * Writes what comes before the first record, now, so a watcher sees the columns before any data:
   * the table heading, the CSV header, or the JSON document's head (members about the whole stream,
   * then the opening of the array named {@code member}). Called by {@link #write} if not before.
   */
  public void start(Map<String, Object> head, String member) {
    if (started) {
      return;
    }
    started = true;
    switch (form) {
      case TABLE -> out.println(schema.tableHeader());
      case CSV -> out.println(schema.csvHeader());
      case JSON_DOCUMENT -> {
        String text = JsonText.of(head);
        out.print(
            text.substring(0, text.length() - 1)
                + (head.isEmpty() ? "" : ",")
                + JsonText.of(member)
                + ":[");
      }
      default -> {}
    }
    out.flush();
  }

  /**
   * Ends a live stream with its summary, where each form wants it: a table gets the summary's lines
   * after a blank line, JSON Lines one more object (the summary's, with {@code stoppedBecause}),
   * CSV its lines on {@code err}, so that the data stays one table.
   *
   * @param object the summary as a JSON object (a {@code "kind":"summary"} member first)
   * @param lines prints the summary as text lines on the stream it is given
   */
  public void summary(
      Map<String, Object> object,
      String stoppedBecause,
      PrintStream err,
      Consumer<PrintStream> lines) {
    start();
    switch (form) {
      case JSON_LINES, JSON_DOCUMENT -> {
        Map<String, Object> o = new java.util.LinkedHashMap<>(object);
        o.put("stoppedBecause", stoppedBecause);
        out.println(JsonText.of(o));
        out.flush();
      }
      case CSV -> lines.accept(err);
      case TABLE -> {
        out.println();
        lines.accept(out);
      }
    }
  }

  /** {@link #start(Map, String)} with no head, the array named {@code records}. */
  public void start() {
    start(Map.of(), "records");
  }

  /** Writes one record. */
  public void write(R record) {
    start();
    // A new builder each time: one that once held a non-Latin-1 character stays two bytes a char.
    StringBuilder line = new StringBuilder(1024);
    switch (form) {
      case TABLE -> line.append(schema.tableRow(record)).append(System.lineSeparator());
      case CSV -> line.append(schema.csvRow(record)).append(System.lineSeparator());
      case JSON_LINES -> schema.appendJson(line, record).append(System.lineSeparator());
      case JSON_DOCUMENT -> schema.appendJson(line.append(first ? "\n" : ",\n"), record);
    }
    out.append(line);
    first = false;
    written++;
    if (flushEach) {
      out.flush();
    }
  }

  /** Ends the stream: closes the JSON document's array, then adds {@code tail}'s members. */
  public void finish(Map<String, Object> tail) {
    start();
    if (form == Form.JSON_DOCUMENT) {
      String text = JsonText.of(tail);
      out.println((first ? "" : "\n") + "]" + (tail.isEmpty() ? "}" : "," + text.substring(1)));
    }
    out.flush();
  }

  /** How many records were written. */
  public long written() {
    return written;
  }
}
