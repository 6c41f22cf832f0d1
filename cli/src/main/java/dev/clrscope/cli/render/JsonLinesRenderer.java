package dev.clrscope.cli.render;

import java.io.PrintStream;

/**
 * Draws a stream as JSON Lines: one object per record as it comes, then the summary's object (its
 * {@code "kind"} tells it apart). A whole report is one line: its JSON document.
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
    return new RecordSink<>() {
      private long written;

      @Override
      public void start() {}

      @Override
      public void write(R record) {
        // A new builder each time: one that once held a non-Latin-1 character stays two bytes a
        // char.
        StringBuilder line = new StringBuilder(1024);
        stream.schema().appendJson(line, record).append(System.lineSeparator());
        out.append(line);
        written++;
        if (stream.flushEach()) {
          out.flush();
        }
      }

      @Override
      public void finish(Report summary) {
        if (summary != null) {
          report(summary);
        }
        out.flush();
      }

      @Override
      public long written() {
        return written;
      }
    };
  }
}
