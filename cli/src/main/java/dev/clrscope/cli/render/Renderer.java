package dev.clrscope.cli.render;

import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Draws results in one output format: one implementation per format, chosen once per command run
 * ({@link #of}). Commands hand it what they produced (a {@link Report}, or records as they come)
 * and never print data themselves; adding a format is adding one implementation here.
 */
public interface Renderer {
  /** The format this renderer draws. */
  OutputFormat format();

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
   *     output read as a whole, flushed when the stream ends
   * @param fitted a table leaves out the columns a narrow terminal has no room for; false when the
   *     user chose the columns
   */
  record Stream<R>(
      RecordSchema<R> schema,
      String member,
      Map<String, Object> head,
      Function<? super R, List<String>> details,
      boolean flushEach,
      boolean fitted,
      String allColumns) {
    /** Copies the head. */
    public Stream {
      head = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(head));
    }

    /** A live stream of records: the document's array is {@code records}. */
    public static <R> Stream<R> live(RecordSchema<R> schema) {
      return new Stream<>(schema, "records", Map.of(), null, true, true, null);
    }

    /** This stream, with lines under each record in a table. */
    public Stream<R> withDetails(Function<? super R, List<String>> lines) {
      return new Stream<>(schema, member, head, lines, flushEach, fitted, allColumns);
    }

    /**
     * This stream, as one JSON document whose records are {@code arrayMember}, after {@code
     * members}.
     */
    public Stream<R> inDocument(Map<String, Object> members, String arrayMember) {
      return new Stream<>(schema, arrayMember, members, details, flushEach, fitted, allColumns);
    }

    /** This stream, flushed only at its end: output read as a whole. */
    public Stream<R> buffered() {
      return new Stream<>(schema, member, head, details, false, fitted, allColumns);
    }

    /** This stream with every column its schema shows, whatever the terminal's width. */
    public Stream<R> unfitted() {
      return new Stream<>(schema, member, head, details, flushEach, false, allColumns);
    }

    /** This stream, whose table the user can ask for every column with {@code option}. */
    public Stream<R> allColumnsWith(String option) {
      return new Stream<>(schema, member, head, details, flushEach, fitted, option);
    }
  }

  /** Where a stream's records go, in the renderer's format. */
  interface RecordSink<R> {
    /** Draws what comes before the first record now, so a watcher sees the columns at once. */
    void start();

    /** Draws one record. */
    void write(R record);

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
    return switch (format) {
      case table -> new TextRenderer(out, err, columns);
      case json -> new JsonRenderer(out);
      case jsonl -> new JsonLinesRenderer(out);
      case csv -> new CsvRenderer(out, err);
    };
  }
}
