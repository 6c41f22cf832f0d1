package dev.clrscope.cli.render;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Draws results in one output format: one implementation per format, chosen once per command run
 * ({@link #of}). Commands return what they produced (a {@link Result}) and never print data
 * themselves; {@link #draw} is the one place a result is drawn, and adding a format is adding one
 * implementation here.
 */
public interface Renderer {
  /** The format this renderer draws. */
  OutputFormat format();

  /**
   * Draws a command's result: a report at once, records as the command's work produces them and
   * then their summary (the stream is ended however the work ends, so a JSON document stays whole),
   * nothing for {@link Result.Done}.
   */
  default void draw(Result result) {
    if (result instanceof Report r) {
      report(r);
    } else if (result instanceof Records<?> r) {
      drawRecords(this, r);
    }
  }

  private static <R> void drawRecords(Renderer renderer, Records<R> records) {
    RecordSink<R> sink = renderer.records(records.stream());
    // Whether anything was drawn: a stream that failed before it began leaves no output at all.
    boolean[] begun = {false};
    Records.Sink<R> seen =
        new Records.Sink<>() {
          @Override
          public void start() {
            begun[0] = true;
            sink.start();
          }

          @Override
          public void write(R record) {
            begun[0] = true;
            sink.write(record);
          }

          @Override
          public void redraw() {
            begun[0] = true;
            sink.redraw();
          }
        };
    Report summary;
    try {
      summary = records.work().run(seen);
    } catch (RuntimeException | Error e) {
      if (begun[0]) {
        sink.finish(null);
      }
      throw e;
    }
    sink.finish(summary);
  }

  /** Draws a whole result on stdout (CSV: its other parts on stderr). */
  void report(Report report);

  /** A stream of records drawn as they come, ended by a summary. */
  <R> RecordSink<R> records(Stream<R> stream);

  /**
   * What a stream of records is.
   *
   * @param schema the records' fields
   * @param member the JSON document's array of records
   * @param head members of the JSON document before that array (about the whole stream)
   * @param details lines a table draws under a record (its stack), or {@code null}
   * @param flushEach flush after every record (a live session, watched as it happens); false for
   *     output read as a whole, written in large blocks and flushed when the stream ends
   * @param fitted a table leaves out the columns a narrow terminal has no room for; false when the
   *     user chose the columns
   * @param allColumns the option that shows every column of a table, or {@code null}
   * @param view what a table draws instead of rows: a view redrawn in place on a terminal, or
   *     {@code null}
   * @param jsonLines writes a record's JSON Lines text straight as bytes (millions of records), or
   *     {@code null}: the schema's text, which it must equal
   */
  record Stream<R>(
      RecordSchema<R> schema,
      String member,
      Map<String, Object> head,
      Function<? super R, List<String>> details,
      boolean flushEach,
      boolean fitted,
      String allColumns,
      LiveView view,
      JsonLineWriter<? super R> jsonLines) {
    /** Copies the head. */
    public Stream {
      head = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(head));
    }

    /** A live stream of records: the document's array is {@code records}. */
    public static <R> Stream<R> live(RecordSchema<R> schema) {
      return new Stream<>(schema, "records", Map.of(), null, true, true, null, null, null);
    }

    /** This stream, with lines under each record in a table. */
    public Stream<R> withDetails(Function<? super R, List<String>> lines) {
      return new Stream<>(
          schema, member, head, lines, flushEach, fitted, allColumns, view, jsonLines);
    }

    /**
     * This stream, as one JSON document whose records are {@code arrayMember}, after {@code
     * members}.
     */
    public Stream<R> inDocument(Map<String, Object> members, String arrayMember) {
      return new Stream<>(
          schema, arrayMember, members, details, flushEach, fitted, allColumns, view, jsonLines);
    }

    /** This stream, flushed only at its end: output read as a whole. */
    public Stream<R> buffered() {
      return new Stream<>(
          schema, member, head, details, false, fitted, allColumns, view, jsonLines);
    }

    /** This stream with every column its schema shows, whatever the terminal's width. */
    public Stream<R> unfitted() {
      return new Stream<>(
          schema, member, head, details, flushEach, false, allColumns, view, jsonLines);
    }

    /** This stream, whose table the user can ask for every column with {@code option}. */
    public Stream<R> allColumnsWith(String option) {
      return new Stream<>(
          schema, member, head, details, flushEach, fitted, option, view, jsonLines);
    }

    /** This stream, which a table shows as {@code liveView} rather than as rows. */
    public Stream<R> withView(LiveView liveView) {
      return new Stream<>(
          schema, member, head, details, flushEach, fitted, allColumns, liveView, jsonLines);
    }

    /** This stream, whose JSON Lines {@code writer} writes straight as bytes. */
    public Stream<R> withJsonLines(JsonLineWriter<? super R> writer) {
      return new Stream<>(
          schema, member, head, details, flushEach, fitted, allColumns, view, writer);
    }
  }

  /**
   * A record's JSON Lines text written straight into a line of bytes, for a stream of millions of
   * records; the text equals what the stream's schema writes.
   */
  @FunctionalInterface
  interface JsonLineWriter<R> {
    /** Appends the record's JSON object (without the line's end) to {@code line}. */
    void append(R record, JsonLineBuffer line);
  }

  /** Where a stream's records go, in the renderer's format. */
  interface RecordSink<R> extends Records.Sink<R> {
    /** Ends the stream, with its summary ({@code null} for none). */
    void finish(Report summary);

    /** How many records were written. */
    long written();
  }

  /**
   * The renderer of {@code format}: data on {@code out}, what a format has no room for on {@code
   * err}. A table fits {@code columns} characters (0: no limit, for output that is not a terminal).
   */
  static Renderer of(OutputFormat format, PrintStream out, PrintStream err, int columns) {
    return of(format, out, err, Terminal.Size.ofWidth(columns));
  }

  /**
   * The renderer of one result among a session's many (analyze's prompt, a result per command): as
   * {@link #of(OutputFormat, PrintStream, PrintStream, int)}, but JSON puts each result's document
   * on one line (JSON Lines), and a table is set apart from the one before it ({@code first}: none
   * before) by a blank line.
   */
  static Renderer ofSession(
      OutputFormat format, PrintStream out, PrintStream err, int columns, boolean first) {
    return switch (format) {
      case json -> new JsonRenderer(out, true);
      case table -> {
        if (!first) {
          out.println();
        }
        yield new TextRenderer(out, err, columns);
      }
      default -> of(format, out, err, columns);
    };
  }

  /**
   * As {@link #of(OutputFormat, PrintStream, PrintStream, int)}, for a terminal of {@code size}: a
   * live view is redrawn in place on a terminal, and fits its height too.
   */
  static Renderer of(OutputFormat format, PrintStream out, PrintStream err, Terminal.Size size) {
    return switch (format) {
      case table -> new TextRenderer(out, err, size);
      case json -> new JsonRenderer(out);
      case jsonl -> new JsonLinesRenderer(out);
      case csv -> new CsvRenderer(out, err);
    };
  }
}
