package dev.clrscope.cli;

import dev.clrscope.cli.output.RunOutput;
import dev.clrscope.cli.render.OutputFormat;
import dev.clrscope.cli.render.Records;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Result;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * One in-process run of clrscope: its exit code, the results its command returned (a stream's
 * records gathered, with its summary), and what it printed on stdout and stderr. Tests assert on
 * the results; the text is there for what is about text (usage errors, help, a doc's example). Runs
 * share no state: each has its own streams, so tests may run at once.
 *
 * @param exit the exit code
 * @param out what it printed on stdout
 * @param err what it printed on stderr
 * @param results what the command returned, in order: a {@link Report}, or {@link Streamed}
 */
public record CliRun(int exit, String out, String err, List<Object> results) {
  /**
   * What a command that streams records returned: every record, in order, and the summary.
   *
   * @param records the records as they came
   * @param summary the summary that ended them, or {@code null}
   */
  public record Streamed(List<Object> records, Report summary) {
    /** The records, as the command's record type. */
    @SuppressWarnings("unchecked")
    public <R> List<R> as() {
      return (List<R>) records;
    }
  }

  /** Runs clrscope with {@code args}, keeping its results and its output. */
  public static CliRun of(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Kept kept =
        new Kept(
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(err, true, StandardCharsets.UTF_8));
    int exit = Main.run(kept, args);
    return new CliRun(
        exit,
        out.toString(StandardCharsets.UTF_8),
        err.toString(StandardCharsets.UTF_8),
        List.copyOf(kept.results));
  }

  /** The one report the command returned; fails when it returned something else. */
  public Report report() {
    if (results.size() != 1 || !(results.get(0) instanceof Report r)) {
      throw new AssertionError("expected one report, got " + results + "; " + this);
    }
    return r;
  }

  /** The one stream of records the command returned; fails when it returned something else. */
  public Streamed streamed() {
    if (results.size() != 1 || !(results.get(0) instanceof Streamed s)) {
      throw new AssertionError("expected one stream of records, got " + results + "; " + this);
    }
    return s;
  }

  /** An output that keeps every result it draws. */
  private static final class Kept extends RunOutput {
    final List<Object> results = new ArrayList<>();

    Kept(PrintStream out, PrintStream err) {
      super(out, err);
    }

    @Override
    public void draw(Result result, OutputFormat format) {
      if (result instanceof Records<?> r) {
        super.draw(kept(r), format);
      } else {
        if (result instanceof Report) {
          results.add(result);
        }
        super.draw(result, format);
      }
    }

    /** The same records, each kept as it passes to the renderer, and their summary. */
    private <R> Records<R> kept(Records<R> r) {
      List<Object> records = new ArrayList<>();
      return Records.of(
          r.stream(),
          sink -> {
            Report summary =
                r.work()
                    .run(
                        new Records.Sink<R>() {
                          @Override
                          public void start() {
                            sink.start();
                          }

                          @Override
                          public void write(R record) {
                            synchronized (records) {
                              records.add(record);
                            }
                            sink.write(record);
                          }

                          @Override
                          public void redraw() {
                            sink.redraw();
                          }
                        });
            results.add(new Streamed(List.copyOf(records), summary));
            return summary;
          });
    }
  }
}
