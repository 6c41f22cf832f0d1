package dev.clrscope.cli.commands.counters;

import dev.clrscope.cli.attach.AttachedTarget;
import dev.clrscope.cli.options.StreamFormatOption;
import dev.clrscope.cli.options.TargetSpec;
import dev.clrscope.cli.render.LiveView;
import dev.clrscope.cli.render.Records;
import dev.clrscope.cli.render.Result;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.monitor.counters.CounterBoard;
import dev.clrscope.monitor.counters.CounterPlan;
import dev.clrscope.monitor.counters.Measurement;
import dev.clrscope.monitor.counters.SessionProblem;
import dev.clrscope.monitor.session.StopSwitch;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code clrscope counters monitor}: the latest values, live. */
@Command(
    name = "monitor",
    mixinStandardHelpOptions = true,
    description = {
      "Show counter values live. On a terminal the table is redrawn in place, fitted to the"
          + " terminal's width and height (keys: p pause, r resume, q quit); otherwise each"
          + " interval is printed as a plain block stamped with its local time. Instruments that"
          + " have not reported yet show as waiting for their first value; those never heard of"
          + " are named at exit. --format json, jsonl or csv writes every measurement instead,"
          + " as `counters collect --layout full` does."
    })
public final class MonitorCommand extends CounterSessionCommand {
  @Mixin StreamFormatOption format;

  @Option(
      names = {"--show-deltas", "--showDeltas"},
      description = "Also show each value's change since the previous interval.")
  boolean showDeltas;

  @Option(
      names = {"--abbreviate-large-numbers", "--abbreviateLargeNumbers"},
      description =
          "Show values of a thousand and more as 1.23K, 573.72M, 4.1G, 2T (as dotnet-counters"
              + " does with this option); exact digits otherwise.")
  boolean abbreviate;

  @Override
  protected boolean stopOnEnter() {
    return false;
  }

  /** The board a table shows: the latest value of every series, redrawn as values come. */
  private final class Board implements LiveView {
    final CounterBoard values;
    final AttachedTarget attached;
    final AtomicLong version = new AtomicLong();
    final AtomicLong measured = new AtomicLong();
    volatile long lastChangeNanos;
    volatile boolean paused;
    volatile String problem;
    volatile boolean inPlace;

    Board(CounterPlan plan, AttachedTarget attached) {
      this.values = new CounterBoard(plan);
      this.attached = attached;
    }

    @Override
    public void start(boolean redrawnInPlace) {
      inPlace = redrawnInPlace;
    }

    @Override
    public List<String> frame(int width) {
      List<CounterBoard.Row> rows = values.rows();
      Instant newest = BoardLines.newest(rows);
      List<String> lines = new ArrayList<>();
      if (inPlace) {
        lines.add("Press p to pause, r to resume, q to quit.");
        lines.add(
            "    "
                + attached.describe()
                + "  "
                + (paused ? "Status: Paused" : "Status: Running")
                + (newest == null ? "" : "  " + Unit.time(newest)));
        lines.add("");
      } else {
        lines.add(newest == null ? "-" : Unit.time(newest));
      }
      lines.addAll(
          BoardLines.render(
              rows, options.refreshSeconds, showDeltas, abbreviate, inPlace ? width : 0));
      String p = problem;
      if (inPlace && p != null) {
        lines.add("");
        lines.add("! " + p);
      }
      return lines;
    }
  }

  @Override
  protected Result records(CounterPlan plan, AttachedTarget attached) {
    Board board = new Board(plan, attached);
    Map<String, Object> about = new LinkedHashMap<>();
    about.put("target", attached.describe());
    about.put("pid", attached.pid() > 0 ? attached.pid() : null);
    about.put("counters", options.counters);
    about.put("refreshIntervalSeconds", options.refreshSeconds);
    return Records.of(
        CounterRecords.full(about).withView(board),
        sink -> {
          sink.start();
          err()
              .println(
                  "Monitoring counters of "
                      + attached.describe()
                      + " every "
                      + CounterText.exact(options.refreshSeconds)
                      + " s; "
                      + (board.inPlace
                          ? "p pause, r resume, q or Ctrl+C quit."
                          : "Ctrl+C to stop."));
          long[] drawnMeasured = {0};
          String why =
              watchCounters(
                  plan,
                  attached,
                  update -> {
                    if (!board.values.accept(update)) {
                      return;
                    }
                    if (update instanceof Measurement m) {
                      board.measured.incrementAndGet();
                      sink.write(m);
                    }
                    if (update instanceof SessionProblem p) {
                      board.problem = p.message();
                      if (!board.inPlace) {
                        warn(p.message());
                      }
                    }
                    board.lastChangeNanos = System.nanoTime();
                    board.version.incrementAndGet();
                  },
                  stop -> whileRunning(stop, board, sink, drawnMeasured));
          if (board.inPlace || board.measured.get() > drawnMeasured[0]) {
            sink.redraw();
          }
          List<String> notes = board.values.neverSeen();
          notes.forEach(this::warn);
          err().println("Stopped (" + (why == null ? "the stream ended" : why) + ").");
          return CounterRecords.summary(why, notes);
        });
  }

  /**
   * Redraws the board once an interval's values stopped coming for a moment (in place on a
   * terminal, else a block for each interval that brought values), and reads the keys.
   */
  private void whileRunning(
      StopSwitch stop, Board board, Records.Sink<Measurement> sink, long[] drawnMeasured)
      throws InterruptedException {
    boolean launched = target.spec() instanceof TargetSpec.Launch;
    // A launched child shares stdin: the keys are its own then.
    TerminalKeys keys =
        launched
            ? null
            : TerminalKeys.start(
                System.in,
                c -> {
                  switch (Character.toLowerCase((char) c)) {
                    case 'p' -> board.paused = true;
                    case 'r' -> {
                      board.paused = false;
                      board.version.incrementAndGet();
                    }
                    case 'q' -> stop.request("q pressed");
                    default -> {
                      // Other keys do nothing.
                    }
                  }
                });
    try {
      long drawn = -1;
      boolean shownPaused = false;
      while (!stop.awaitStop(Duration.ofMillis(50))) {
        if (board.paused) {
          if (board.inPlace && !shownPaused) {
            sink.redraw();
            shownPaused = true;
          }
          continue;
        }
        shownPaused = false;
        long v = board.version.get();
        // Values of one interval arrive together: draw once they stopped coming for a moment.
        if (v == drawn || System.nanoTime() - board.lastChangeNanos < 150_000_000L) {
          continue;
        }
        if (board.inPlace) {
          sink.redraw();
        } else if (board.measured.get() > drawnMeasured[0]) {
          drawnMeasured[0] = board.measured.get();
          sink.redraw();
        }
        drawn = v;
      }
    } finally {
      if (keys != null) {
        keys.close();
      }
    }
  }
}
