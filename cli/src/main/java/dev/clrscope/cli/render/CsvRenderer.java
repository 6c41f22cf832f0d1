package dev.clrscope.cli.render;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Draws one CSV table on stdout (RFC 4180, a header of keys, exact values): a report's primary
 * part, or a stream's records. What else a report holds, and a stream's summary, goes to stderr as
 * text, so stdout stays one table a CSV reader takes whole.
 */
public final class CsvRenderer implements Renderer {
  private final PrintStream out;
  private final PrintStream err;

  /** A renderer on {@code out}; the rest on {@code err}. */
  public CsvRenderer(PrintStream out, PrintStream err) {
    this.out = out;
    this.err = err;
  }

  @Override
  public OutputFormat format() {
    return OutputFormat.csv;
  }

  @Override
  public void report(Report report) {
    Report.Part primary = report.primary();
    if (primary instanceof Report.Values<?> v) {
      values(v);
    } else if (primary instanceof Report.Rows<?> r) {
      rows(r);
    } else if (primary instanceof Report.Tree<?> t) {
      tree(t);
    }
    out.flush();
    Report.Builder rest = Report.builder();
    boolean any = false;
    for (Report.Part p : report.parts()) {
      if (p != primary) {
        rest.part(p);
        any = true;
      }
    }
    if (any) {
      new TextRenderer(err, err, 0).report(rest.build());
    }
  }

  private <R> void values(Report.Values<R> v) {
    out.println(v.schema().csvHeader());
    out.println(v.schema().csvRow(v.record()));
  }

  private <R> void rows(Report.Rows<R> r) {
    out.println(r.schema().csvHeader());
    for (R row : r.rows()) {
      out.println(r.schema().csvRow(row));
    }
  }

  private <N> void tree(Report.Tree<N> t) {
    out.println("id,parentId,depth," + t.schema().csvHeader());
    int[] next = {0};
    for (N root : t.roots()) {
      node(t, root, -1, 0, next);
    }
  }

  private <N> void node(Report.Tree<N> t, N node, int parent, int depth, int[] next) {
    int id = next[0]++;
    List<Object> head = new ArrayList<>(3);
    head.add(id);
    head.add(parent < 0 ? null : parent);
    head.add(depth);
    out.println(CsvText.row(head) + "," + t.schema().csvRow(node));
    for (N child : t.children().apply(node)) {
      node(t, child, id, depth + 1, next);
    }
  }

  @Override
  public <R> RecordSink<R> records(Stream<R> stream) {
    PrintStream out = Buffered.of(this.out, stream);
    return new RecordSink<>() {
      private boolean started;
      private long written;

      @Override
      public void start() {
        if (!started) {
          started = true;
          out.println(stream.schema().csvHeader());
          out.flush();
        }
      }

      @Override
      public void write(R record) {
        start();
        out.append(stream.schema().csvRow(record)).append(System.lineSeparator());
        written++;
        if (stream.flushEach()) {
          out.flush();
        }
      }

      @Override
      public void finish(Report summary) {
        start();
        out.flush();
        if (summary != null) {
          new TextRenderer(err, err, 0).report(summary);
        }
      }

      @Override
      public long written() {
        return written;
      }
    };
  }
}
