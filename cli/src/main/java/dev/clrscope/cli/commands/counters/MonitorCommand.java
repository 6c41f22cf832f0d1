package dev.clrscope.cli.commands.counters;

import dev.clrscope.cli.attach.AttachedTarget;
import dev.clrscope.cli.options.TargetSpec;
import dev.clrscope.cli.render.Terminal;
import dev.clrscope.cli.render.TextRenderer;
import dev.clrscope.monitor.counters.CounterBoard;
import dev.clrscope.monitor.counters.CounterPlan;
import dev.clrscope.monitor.counters.CounterUpdate;
import dev.clrscope.monitor.counters.Measurement;
import dev.clrscope.monitor.counters.SessionProblem;
import dev.clrscope.monitor.session.StopSwitch;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code clrscope counters monitor}: the latest values, live. */
@Command(
    name = "monitor",
    mixinStandardHelpOptions = true,
    description = {
      "Show counter values live. On a terminal the table is redrawn in place (keys: p pause, r"
          + " resume, q quit); otherwise each interval is printed as a plain timestamped block."
          + " Instruments that have not reported yet show as waiting for their first value; those"
          + " never heard of are named at exit."
    })
public final class MonitorCommand extends CounterSessionCommand {
  private static final String CSI = "\u001b[";

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

  private CounterBoard board;
  private boolean terminal;
  private AttachedTarget attached;
  private final AtomicLong version = new AtomicLong();
  private final AtomicLong measured = new AtomicLong();
  private volatile long lastChangeNanos;
  private volatile boolean paused;
  private volatile String problem;
  private long printedMeasured;
  private int columns;

  @Override
  protected boolean stopOnEnter() {
    return false;
  }

  @Override
  protected void begin(CounterPlan plan, AttachedTarget attached) {
    this.attached = attached;
    board = new CounterBoard(plan);
    terminal = TerminalKeys.isTerminal(1);
    // The board is redrawn in place: a line that wrapped would push it down the screen.
    columns = terminal ? Terminal.stdoutColumns() : 0;
    err()
        .println(
            "Monitoring counters of "
                + attached.describe()
                + " every "
                + CounterText.exact(options.refreshSeconds)
                + " s; "
                + (terminal ? "p pause, r resume, q or Ctrl+C quit." : "Ctrl+C to stop."));
    if (terminal) {
      // Hide the cursor and start from a clean screen; the view is redrawn from the top.
      out().print(CSI + "?25l" + CSI + "2J" + CSI + "H");
      out().flush();
    }
  }

  @Override
  protected void accept(CounterUpdate update) {
    if (board.accept(update)) {
      if (update instanceof Measurement) {
        measured.incrementAndGet();
      }
      if (update instanceof SessionProblem p) {
        problem = p.message();
        if (!terminal) {
          warn(p.message());
        }
      }
      lastChangeNanos = System.nanoTime();
      version.incrementAndGet();
    }
  }

  @Override
  protected void whileRunning(StopSwitch stop) throws InterruptedException {
    boolean launched = target.spec() instanceof TargetSpec.Launch;
    // A launched child shares stdin: the keys are its own then.
    TerminalKeys keys =
        launched
            ? null
            : TerminalKeys.start(
                System.in,
                c -> {
                  switch (Character.toLowerCase((char) c)) {
                    case 'p' -> paused = true;
                    case 'r' -> {
                      paused = false;
                      version.incrementAndGet();
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
        if (paused) {
          if (terminal && !shownPaused) {
            draw(true);
            shownPaused = true;
          }
          continue;
        }
        shownPaused = false;
        long v = version.get();
        // Values of one interval arrive together: draw once they stopped coming for a moment.
        if (v == drawn || System.nanoTime() - lastChangeNanos < 150_000_000L) {
          continue;
        }
        if (terminal) {
          draw(false);
        } else if (measured.get() > printedMeasured) {
          printedMeasured = measured.get();
          printBlock();
        }
        drawn = v;
      }
    } finally {
      if (keys != null) {
        keys.close();
      }
    }
  }

  @Override
  protected void end(String stopReason) {
    if (terminal) {
      draw(false);
      out().print(CSI + "?25h");
      out().flush();
    } else if (measured.get() > printedMeasured) {
      printBlock();
    }
    List<String> notes = board.neverSeen();
    notes.forEach(this::warn);
    err().println("Stopped (" + (stopReason == null ? "the stream ended" : stopReason) + ").");
  }

  private void draw(boolean pausedNow) {
    List<CounterBoard.Row> rows = board.rows();
    StringBuilder sb = new StringBuilder(CSI + "H");
    Instant newest = LiveView.newest(rows);
    line(sb, "Press p to pause, r to resume, q to quit.");
    line(
        sb,
        "    "
            + attached.describe()
            + "  "
            + (pausedNow ? "Status: Paused" : "Status: Running")
            + (newest == null ? "" : "  " + newest));
    line(sb, "");
    for (String l :
        LiveView.render(rows, options.refreshSeconds, showDeltas, abbreviate, columns)) {
      line(sb, l);
    }
    String p = problem;
    if (p != null) {
      line(sb, "");
      line(sb, "! " + p);
    }
    sb.append(CSI).append('J');
    out().print(sb);
    out().flush();
  }

  private void line(StringBuilder sb, String text) {
    sb.append(TextRenderer.cut(text, columns)).append(CSI).append('K').append('\n');
  }

  private void printBlock() {
    List<CounterBoard.Row> rows = board.rows();
    Instant newest = LiveView.newest(rows);
    StringBuilder sb = new StringBuilder();
    sb.append(newest == null ? "-" : newest.toString()).append('\n');
    for (String l : LiveView.render(rows, options.refreshSeconds, showDeltas, abbreviate, 0)) {
      sb.append(l).append('\n');
    }
    sb.append('\n');
    out().print(sb);
    out().flush();
  }
}
