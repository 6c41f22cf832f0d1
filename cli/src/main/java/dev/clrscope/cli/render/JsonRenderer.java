package dev.clrscope.cli.render;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Draws every result as one JSON document: a report's records as members, its tables as arrays (or
 * objects, where declared), its trees nested under {@code children}; a stream as one document that
 * stays valid however the stream ends, as long as its sink is finished. In its JSON Lines mode
 * (analyze's session of many results) each document is one line.
 */
public final class JsonRenderer implements Renderer {
  private final PrintStream out;
  private final boolean oneLine;

  /** A renderer on {@code out}. */
  public JsonRenderer(PrintStream out) {
    this(out, false);
  }

  /**
   * A renderer on {@code out}; with {@code oneLine}, each document on a line of its own (JSON
   * Lines), a stream's records too.
   */
  public JsonRenderer(PrintStream out, boolean oneLine) {
    this.out = out;
    this.oneLine = oneLine;
  }

  @Override
  public OutputFormat format() {
    return OutputFormat.json;
  }

  @Override
  public void report(Report report) {
    out.println(JsonText.of(document(report)));
    out.flush();
  }

  /**
   * A report's JSON value: a bare array for a report of one table or tree whose key is {@code
   * null}, else an object of every record's members and every table and tree under its key. Notes,
   * and the tables without a key beside other parts (a view of what a member already holds), are
   * for people and left out.
   */
  static Object document(Report report) {
    List<Report.Part> parts = new ArrayList<>();
    for (Report.Part p : report.parts()) {
      // A note, or a record with nothing for JSON (a line for a person), is left out.
      if (!(p instanceof Report.Note)
          && !(p instanceof Report.Values<?> v && !v.schema().hasJson())) {
        parts.add(p);
      }
    }
    if (parts.size() == 1 && parts.get(0) instanceof Report.Rows<?> r && r.key() == null) {
      return rows(r);
    }
    if (parts.size() == 1 && parts.get(0) instanceof Report.Tree<?> t && t.key() == null) {
      return tree(t);
    }
    Map<String, Object> doc = new LinkedHashMap<>();
    for (Report.Part p : parts) {
      if (p instanceof Report.Values<?> v) {
        doc.putAll(values(v));
      } else if (p instanceof Report.Rows<?> r && r.key() != null) {
        doc.put(r.key(), rows(r));
      } else if (p instanceof Report.Tree<?> t && t.key() != null) {
        doc.put(t.key(), tree(t));
      }
    }
    return doc;
  }

  private static <R> Map<String, Object> values(Report.Values<R> v) {
    return v.schema().jsonObject(v.record());
  }

  private static <R> Object rows(Report.Rows<R> r) {
    if (!r.jsonMap()) {
      return r.schema().jsonObjects(r.rows());
    }
    Map<String, Object> map = new LinkedHashMap<>();
    for (R row : r.rows()) {
      List<Object> members = new ArrayList<>(r.schema().jsonObject(row).values());
      if (r.schema().kind() != null) {
        members.remove(0);
      }
      map.put(String.valueOf(members.get(0)), members.get(1));
    }
    return map;
  }

  private static <N> List<Object> tree(Report.Tree<N> t) {
    return nodes(t, t.roots());
  }

  private static <N> List<Object> nodes(Report.Tree<N> t, List<N> nodes) {
    List<Object> list = new ArrayList<>(nodes.size());
    for (N n : nodes) {
      Map<String, Object> o = t.schema().jsonObject(n);
      o.put("children", nodes(t, t.children().apply(n)));
      list.add(o);
    }
    return list;
  }

  @Override
  public <R> RecordSink<R> records(Stream<R> stream) {
    PrintStream out = Buffered.of(this.out, stream);
    return new RecordSink<>() {
      private boolean started;
      private boolean first = true;
      private long written;

      @Override
      public void start() {
        if (started) {
          return;
        }
        started = true;
        String head = JsonText.of(stream.head());
        out.print(
            head.substring(0, head.length() - 1)
                + (stream.head().isEmpty() ? "" : ",")
                + JsonText.of(stream.member())
                + ":[");
        out.flush();
      }

      @Override
      public void write(R record) {
        start();
        StringBuilder line = new StringBuilder(1024);
        String before = oneLine ? "" : "\n";
        stream.schema().appendJson(line.append(first ? before : "," + before), record);
        out.append(line);
        first = false;
        written++;
        if (stream.flushEach()) {
          out.flush();
        }
      }

      @Override
      public void finish(Report summary) {
        start();
        out.println(
            (first || oneLine ? "" : "\n")
                + "]"
                + (summary == null ? "" : ",\"summary\":" + JsonText.of(document(summary)))
                + "}");
        out.flush();
      }

      @Override
      public long written() {
        return written;
      }
    };
  }
}
