package dev.clrscope.cli.render;

import java.io.PrintStream;

/**
 * Draws a stream as JSON Lines: one object per record as it comes, then the summary's object (its
 * {@code "kind"} tells it apart). A whole report is one line: its JSON document. A stream that
 * writes its own lines as bytes ({@link Renderer.Stream#jsonLines}, millions of a trace's events)
 * is written that way, into a buffer when it is read as a whole.
 */
public final class JsonLinesRenderer implements Renderer {
  private final PrintStream out;

  /** A renderer on {@code out}. */
  public JsonLinesRenderer(PrintStream out) {
    this.out = out;
  }

  @Override
  public OutputFormat format() {
    return OutputFormat.jsonl;
  }

  @Override
  public void report(Report report) {
    out.println(JsonText.of(JsonRenderer.document(report)));
    out.flush();
  }

  @Override
  public <R> RecordSink<R> records(Stream<R> stream) {
    PrintStream out = Buffered.of(this.out, stream);
    Renderer.JsonLineWriter<? super R> bytes = stream.jsonLines();
    JsonLineBuffer buffer = bytes == null ? null : new JsonLineBuffer();
    return new RecordSink<>() {
      private long written;

      @Override
      public void start() {}

      @Override
      public void write(R record) {
        if (bytes != null) {
          bytes.append(record, buffer.clear());
          buffer.writeLineTo(out);
        } else {
          // A new builder each time: one that once held a non-Latin-1 character stays two bytes a
          // char.
          StringBuilder line = new StringBuilder(1024);
          stream.schema().appendJson(line, record).append(System.lineSeparator());
          out.append(line);
        }
        written++;
        if (stream.flushEach()) {
          out.flush();
        }
      }

      @Override
      public void finish(Report summary) {
        out.flush();
        if (summary != null) {
          report(summary);
        }
        JsonLinesRenderer.this.out.flush();
      }

      @Override
      public long written() {
        return written;
      }
    };
  }
}
