package dev.clrscope.cli.render;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;

/**
 * Draws results for a person at a terminal: records as {@code Label value} lines, tables in aligned
 * columns that fit the terminal (the least useful columns left out, the widest text cut with {@code
 * ...}), trees indented, a stream's rows at fixed widths so they align as they come.
 */
public final class TextRenderer implements Renderer {
  /** Indentation of the lines under a row (a stack's frames). */
  static final String DETAIL_INDENT = "    ";

  private static final String CSI = "\u001b[";

  private final PrintStream out;
  private final PrintStream err;
  private final boolean terminal;
  private final int columns;
  private final int rows;

  /**
   * A renderer on {@code out}.
   *
   * @param err where it says which columns a narrow terminal left out
   * @param columns the terminal's width; 0 for no limit (and no terminal)
   */
  public TextRenderer(PrintStream out, PrintStream err, int columns) {
    this(out, err, Terminal.Size.ofWidth(columns));
  }

  /**
   * A renderer on {@code out}, a terminal of {@code size} or not: lines fit its width, a live view
   * is redrawn in place on it and fits its height too (0: no limit).
   */
  public TextRenderer(PrintStream out, PrintStream err, Terminal.Size size) {
    this.out = out;
    this.err = err;
    this.terminal = size.terminal();
    this.columns = size.columns();
    this.rows = size.rows();
  }

  @Override
  public OutputFormat format() {
    return OutputFormat.table;
  }

  @Override
  public void report(Report report) {
    lines(report).forEach(out::println);
    out.flush();
  }

  /** The lines of a report, its parts apart by a blank line. */
  List<String> lines(Report report) {
    List<String> lines = new ArrayList<>();
    for (Report.Part p : report.parts()) {
      if (p instanceof Report.Rows<?> r && r.rows().isEmpty()
          || p instanceof Report.Tree<?> t && t.roots().isEmpty()) {
        // Nothing to show a person; JSON still has the empty list.
        continue;
      }
      if (!lines.isEmpty()) {
        lines.add("");
      }
      if (p instanceof Report.Values<?> v) {
        values(v, lines);
      } else if (p instanceof Report.Rows<?> r) {
        rows(r, lines);
      } else if (p instanceof Report.Tree<?> t) {
        tree(t, lines);
      } else if (p instanceof Report.Note n) {
        lines.add(VisibleText.cell(n.text()));
      }
    }
    return lines;
  }

  private static <R> void values(Report.Values<R> v, List<String> lines) {
    lines.addAll(v.schema().recordLines(v.record()));
  }

  private <R> void rows(Report.Rows<R> r, List<String> lines) {
    if (r.title() != null) {
      lines.add(VisibleText.cell(r.title()));
    }
    List<Field<R>> fields = r.schema().tableFields();
    List<String[]> cells = new ArrayList<>(r.rows().size());
    for (R row : r.rows()) {
      cells.add(cells(fields, row, null, 0));
    }
    ColumnLayout layout =
        ColumnLayout.fit(fields, r.schema().rankedTableFields(), cells, columns, r.schema().key());
    lines.add(layout.header());
    for (int i = 0; i < cells.size(); i++) {
      lines.add(layout.line(cells.get(i)));
      if (r.details() != null) {
        for (String d : r.details().apply(r.rows().get(i))) {
          lines.add(cut(DETAIL_INDENT + VisibleText.cell(d)));
        }
      }
    }
  }

  private <N> void tree(Report.Tree<N> t, List<String> lines) {
    if (t.title() != null) {
      lines.add(VisibleText.cell(t.title()));
    }
    List<Field<N>> fields = t.schema().tableFields();
    List<String[]> cells = new ArrayList<>();
    for (N root : t.roots()) {
      treeCells(t, fields, root, 0, cells);
    }
    ColumnLayout layout =
        ColumnLayout.fit(fields, t.schema().rankedTableFields(), cells, columns, t.schema().key());
    lines.add(layout.header());
    for (String[] c : cells) {
      lines.add(layout.line(c));
    }
  }

  private static <N> void treeCells(
      Report.Tree<N> t, List<Field<N>> fields, N node, int depth, List<String[]> cells) {
    cells.add(cells(fields, node, t.treeColumn(), depth));
    for (N child : t.children().apply(node)) {
      treeCells(t, fields, child, depth + 1, cells);
    }
  }

  private static <R> String[] cells(List<Field<R>> fields, R row, String indented, int depth) {
    String[] c = new String[fields.size()];
    for (int i = 0; i < c.length; i++) {
      Field<R> f = fields.get(i);
      c[i] = f.tableText(row);
      if (depth > 0 && f.key().equals(indented)) {
        c[i] = "  ".repeat(depth) + c[i];
      }
    }
    return c;
  }

  /** A line no wider than the terminal. */
  String cut(String line) {
    return ColumnLayout.cut(line, columns);
  }

  /**
   * {@code text} no wider than {@code width} (0: any width), cut with {@code ...}: for views drawn
   * by hand, such as {@code counters monitor}'s board redrawn in place, which must not wrap.
   */
  public static String cut(String text, int width) {
    return ColumnLayout.cut(text, width);
  }

  @Override
  public <R> RecordSink<R> records(Stream<R> stream) {
    if (stream.view() != null) {
      return live(stream.view());
    }
    PrintStream out = Buffered.of(this.out, stream);
    RecordSchema<R> all = stream.schema();
    RecordSchema<R> shown = columns > 0 && stream.fitted() ? all.fittingTable(columns) : all;
    int dropped = all.tableFields().size() - shown.tableFields().size();
    return new RecordSink<>() {
      private boolean started;
      private long written;

      @Override
      public void start() {
        if (started) {
          return;
        }
        started = true;
        if (dropped > 0) {
          err.println(
              "Showing "
                  + shown.tableFields().size()
                  + " of "
                  + all.tableFields().size()
                  + " columns to fit "
                  + columns
                  + " terminal columns: "
                  + (stream.allColumns() == null
                      ? "csv, json and redirected output show every one."
                      : stream.allColumns()
                          + " shows every one, as do csv, json and redirected output."));
        }
        out.println(cut(shown.tableHeader()));
        out.flush();
      }

      @Override
      public void write(R record) {
        start();
        out.println(cut(shown.tableRow(record, columns > 0 && stream.fitted())));
        if (stream.details() != null) {
          for (String d : stream.details().apply(record)) {
            out.println(cut(DETAIL_INDENT + VisibleText.cell(d)));
          }
        }
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
          TextRenderer.this.out.println();
          report(summary);
        }
        TextRenderer.this.out.flush();
      }

      @Override
      public long written() {
        return written;
      }
    };
  }

  /**
   * A live view's sink: on a terminal each frame is redrawn in place from the top of the screen
   * (the cursor hidden meanwhile), no line wider than the terminal and the frame no taller; else
   * each frame is printed after the last, a blank line between.
   */
  private <R> RecordSink<R> live(LiveView view) {
    boolean inPlace = terminal;
    return new RecordSink<>() {
      private boolean started;
      private long written;

      @Override
      public void start() {
        if (started) {
          return;
        }
        started = true;
        view.start(inPlace);
        if (inPlace) {
          out.print(CSI + "?25l" + CSI + "2J" + CSI + "H");
          out.flush();
        }
      }

      @Override
      public void write(R record) {
        start();
        written++;
      }

      @Override
      public void redraw() {
        start();
        List<String> frame = view.frame(columns);
        StringBuilder sb = new StringBuilder();
        if (inPlace) {
          sb.append(CSI).append('H');
          for (String line : fitHeight(frame, rows)) {
            sb.append(cut(VisibleText.cell(line))).append(CSI).append('K').append('\n');
          }
          sb.append(CSI).append('J');
        } else {
          for (String line : frame) {
            sb.append(VisibleText.cell(line)).append('\n');
          }
          sb.append('\n');
        }
        out.print(sb);
        out.flush();
      }

      @Override
      public void finish(Report summary) {
        if (started && inPlace) {
          out.print(CSI + "?25h");
        }
        out.flush();
      }

      @Override
      public long written() {
        return written;
      }
    };
  }

  /**
   * The lines of a frame that fit {@code rows} terminal lines (0: any number) redrawn in place: one
   * line fewer than the terminal has, so the last line break does not scroll it, and when lines are
   * left out the last one says how many.
   */
  static List<String> fitHeight(List<String> lines, int rows) {
    if (rows <= 1 || lines.size() <= rows - 1) {
      return lines;
    }
    List<String> kept = new ArrayList<>(lines.subList(0, rows - 2));
    int left = lines.size() - kept.size();
    kept.add("... " + left + " more lines: a taller terminal shows them");
    return kept;
  }
}
