package dev.clrscope.cli.dacprocess;

import dev.clrscope.cli.ClrscopeCommand;
import dev.clrscope.cli.CommandFailure;
import dev.clrscope.cli.ExitCode;
import dev.clrscope.cli.commands.DacCommand;
import dev.clrscope.cli.commands.analyze.PromptReader;
import dev.clrscope.cli.output.RunOutput;
import dev.clrscope.cli.output.StandardOutput;
import dev.clrscope.cli.render.Terminal;
import dev.clrscope.cli.session.Signals;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The front's side of a command line that reads through the DAC: the process the user talks to
 * hands the whole command line to a DAC process ({@link DacHost}) and never maps the DAC itself. It
 * draws what that process prints (each command's output held until the command ends: {@link
 * HeldOutput}), answers its requests for lines (analyze's prompt with JLine here, where the
 * terminal is; stdin's lines), and keeps the user's signals: a Ctrl+C while the command said one
 * ends a part of it (analyze's command at the prompt, triage's watch: {@link DacHost#whileRunning})
 * is sent on as CANCEL, once; otherwise Ctrl+C and SIGTERM stop the DAC process (STOP, a paused
 * process let go) and end with one line. A DAC process that ends without finishing (a fault in the
 * DAC, a kill) is one line too, exit 1; at the prompt the target is opened again in a new DAC
 * process and the prompt goes on.
 */
public final class Front {
  /** How long a DAC process has to end once told to stop before it is killed. */
  private static final Duration STOP_GRACE = Duration.ofSeconds(10);

  /** How long a DAC process that closed its replies has to end before it is killed. */
  private static final Duration END_GRACE = Duration.ofSeconds(10);

  /** How long a DAC process whose replies broke the protocol has to show a crash report. */
  private static final Duration BROKEN_GRACE = Duration.ofSeconds(2);

  /** Signals a fault in native code raises: the DAC's, most likely. */
  private static final Set<String> FAULTS =
      Set.of("SIGSEGV", "SIGBUS", "SIGILL", "SIGFPE", "SIGABRT", "SIGTRAP");

  /** Set once a DAC process said a command line is none of its: this process runs it. */
  private static volatile boolean runHere;

  private final List<String> words;
  private final boolean verbose;
  private final PrintStream out;
  private final PrintStream err;
  private final HeldOutput held;
  private final AtomicReference<String> stopped = new AtomicReference<>();
  private final CountDownLatch stopSaid = new CountDownLatch(1);
  private volatile DacProcess child;
  private volatile String command;
  private volatile Wire.Target target;

  /** The DAC process has asked for a line at the prompt. */
  private volatile boolean atPrompt;

  /**
   * The DAC process's command said a Ctrl+C now ends a part of it: the next one is sent on as
   * CANCEL, and taken back then, so that a second one stops the run.
   */
  private final AtomicBoolean cancellable = new AtomicBoolean();

  private volatile String runningLine = "";

  /** What was wrong with the last DAC process's replies, or null. */
  private String broken;

  private PromptReader prompt;
  private Signals.Previous promptInterrupt;
  private BufferedReader stdin;
  private Terminal.Facts terminal;

  private Front(RunOutput output, List<String> words) {
    this.out = output.out();
    this.err = output.err();
    this.held = new HeldOutput(out, err);
    this.words = words;
    this.verbose = words.contains("-v") || words.contains("--verbose");
    this.command = "clrscope " + firstCommandWord(words);
  }

  /** How a command line handed over ended. */
  public record Outcome(int code, String command) {}

  /**
   * Whether a command line that reads through the DAC goes to a DAC process: not in a DAC process,
   * and not once one said a command line is none of its.
   */
  public static boolean handsOver() {
    return !DacHost.isHost() && !runHere;
  }

  /**
   * Runs the command line in a DAC process when its words say it may read through the DAC, that
   * process started before anything here is parsed; what it prints is drawn on {@code output}.
   *
   * @return how it ended, or null when this process is to run it (the words say it reads nothing
   *     through the DAC, or the DAC process found so once it parsed them)
   */
  public static Outcome runIfPredicted(RunOutput output, String[] args) {
    List<String> words = List.of(args);
    if (!handsOver() || !predicts(words)) {
      return null;
    }
    Front f = new Front(output, words);
    Integer code = f.run();
    return code == null ? null : new Outcome(code, f.command);
  }

  /**
   * Runs a parsed command that reads through the DAC, whose words did not say so: its whole command
   * line in a DAC process.
   *
   * @return its exit code, or null when the DAC process found it reads nothing through the DAC
   */
  public static Integer run(RunOutput output, String[] args) {
    return new Front(output, List.of(args)).run();
  }

  /** Whether the words name a command that may read through the DAC, as far as they say. */
  static boolean predicts(List<String> words) {
    int first = commandStart(words);
    List<String> rest = words.subList(first, words.size());
    if (rest.isEmpty()
        || rest.contains("--help")
        || rest.contains("-h")
        || rest.contains("--version")
        || rest.contains("-V")) {
      return false;
    }
    // Asked of each top-level command that may read through the DAC, for its own name: no
    // annotation is read (the first costs 50 ms, before the DAC process could start).
    for (Class<?> c : ClrscopeCommand.subcommands()) {
      if (DacCommand.class.isAssignableFrom(c)) {
        try {
          if (((DacCommand) c.getDeclaredConstructor().newInstance()).mayReadThroughDac(rest)) {
            return true;
          }
        } catch (ReflectiveOperationException | RuntimeException e) {
          // Asked again once parsed.
        }
      }
    }
    return false;
  }

  /** Where the command's name is among the words: after clrscope's own -v and --log-file. */
  private static int commandStart(List<String> words) {
    int i = 0;
    while (i < words.size() && words.get(i).startsWith("-")) {
      i += words.get(i).equals("--log-file") ? 2 : 1;
    }
    return Math.min(i, words.size());
  }

  private static String firstCommandWord(List<String> words) {
    int i = commandStart(words);
    return i < words.size() ? words.get(i) : "";
  }

  private Integer run() {
    Signals.Previous interrupt = Signals.handle("INT", this::interrupted);
    Signals.Previous terminate = Signals.handle("TERM", () -> stop("SIGTERM"));
    Runnable outputClosed = this::outputClosed;
    StandardOutput.onFailure(outputClosed);
    boolean resumed = false;
    try {
      while (true) {
        if (stopped.get() != null) {
          return awaitStop();
        }
        DacProcess c = start(resumed);
        Relayed r = relay(c);
        switch (r.how()) {
          case END:
            return r.code();
          case NOT_MINE:
            runHere = true;
            return null;
          case STOPPED:
            return awaitStop();
          case OUTPUT_CLOSED:
            // Main says why standard output failed, or exits 141 for a reader that went away.
            return ExitCode.OK;
          default:
            break;
        }
        if (r.reopen()) {
          // At the prompt: the command is lost, the session is not.
          err.println(
              prompt.commandOf(runningLine)
                  + ": "
                  + endedMessage(r.ending())
                  + "; reading it"
                  + " again in a new DAC process");
          report(r.ending());
          resumed = true;
          continue;
        }
        err.println(command + ": " + endedMessage(r.ending()));
        report(r.ending());
        return ExitCode.TARGET_ERROR;
      }
    } catch (CommandFailure e) {
      // No DAC process to run it (none could start), or no terminal for the prompt.
      err.println(command + ": " + e.getMessage());
      return ExitCode.TARGET_ERROR;
    } finally {
      StandardOutput.removeListener(outputClosed);
      if (prompt != null) {
        if (promptInterrupt != null) {
          promptInterrupt.restore();
        }
        prompt.close();
      }
      interrupt.restore();
      terminate.restore();
      DacProcess c = child;
      if (c != null) {
        c.endRequests();
      }
    }
  }

  /** Starts a DAC process and hands it the command line. */
  private DacProcess start(boolean resumed) {
    DacProcess c;
    try {
      c = DacProcess.start();
    } catch (IOException e) {
      throw new CommandFailure("could not start the DAC process: " + e.getMessage(), e);
    }
    child = c;
    cancellable.set(false);
    if (terminal == null) {
      terminal = Terminal.Facts.ofThisProcess();
    }
    try {
      c.send(Wire.Kind.RUN, new Wire.Run(words, terminal, resumed).body());
    } catch (IOException gone) {
      // It ended at once: its replies end too, and say how.
    }
    return c;
  }

  /** How one DAC process's run ended. */
  private enum How {
    END,
    NOT_MINE,
    STOPPED,
    OUTPUT_CLOSED,
    ENDED
  }

  /**
   * @param code the exit code (END)
   * @param ending how the process ended (ENDED)
   * @param reopen whether it ended under the prompt, where a new one goes on
   */
  private record Relayed(How how, int code, DacProcess.Ending ending, boolean reopen) {}

  /** Relays one DAC process's replies until it says its command line ended, or ends. */
  private Relayed relay(DacProcess c) {
    boolean replied = false;
    boolean prompted = false;
    broken = null;
    while (true) {
      Wire.Frame f;
      try {
        f = c.next();
      } catch (IOException e) {
        // A reply that breaks the protocol: nothing more from it can be trusted.
        broken = e.getMessage();
        f = null;
      }
      if (f == null) {
        break;
      }
      replied = true;
      if (stopped.get() != null) {
        continue;
      }
      try {
        switch (f.kind()) {
          case OUT -> held.out(f.body());
          case ERR -> held.err(f.body());
          case NAME -> command = f.text();
          case TARGET -> target = Wire.Target.of(f.body());
          case DONE -> held.release();
          case CANCELLABLE -> cancellable.set(Wire.flag(f.body()));
          case CANCEL_MISSED -> {
            // At the prompt the command ended anyway, and the prompt goes on; elsewhere the
            // Ctrl+C came after the part it could end: it stops the run, on a thread of its own
            // (the stop waits for the DAC process, whose replies this thread goes on reading).
            if (!atPrompt) {
              Thread late = new Thread(() -> stop("SIGINT"), "clrscope-late-interrupt");
              late.setDaemon(true);
              late.start();
            }
          }
          case ASK -> {
            held.release();
            Wire.Ask ask = Wire.Ask.of(f.body());
            prompted |= ask.prompt();
            answer(c, ask);
          }
          case NOT_MINE -> {
            held.release();
            c.endRequests();
            c.awaitEnd(END_GRACE, true);
            return new Relayed(How.NOT_MINE, 0, null, false);
          }
          case END -> {
            held.release();
            // It ends once its stdin closes (a few milliseconds): clrscope ends after it, leaving
            // no process behind.
            c.endRequests();
            c.awaitEnd(END_GRACE, true);
            return new Relayed(How.END, Wire.code(f.body()), null, false);
          }
          default -> throw new Wire.Broken("a " + f.kind() + " frame from the DAC process");
        }
      } catch (Wire.Broken e) {
        broken = e.getMessage();
        break;
      }
    }
    String why = stopped.get();
    if (why != null) {
      return new Relayed(why.equals("output") ? How.OUTPUT_CLOSED : How.STOPPED, 0, null, false);
    }
    held.drop();
    // A JVM that crashes writes the head of its report to stdout whatever it is told (Java 17):
    // replies that break off are most often that. It is killed as soon as its report begins on
    // stderr; one that goes on breaking the protocol is killed here.
    if (broken != null) {
      c.dropReplies();
    }
    DacProcess.Ending ending = c.awaitEnd(broken != null ? BROKEN_GRACE : END_GRACE, false);
    if (ending.crashed()) {
      broken = null;
    }
    if (!replied && !ending.crashed() && ending.signal() == null) {
      String first = c.stderrText().lines().findFirst().orElse("no message");
      throw new CommandFailure(
          "could not start the DAC process (exit status " + ending.exitValue() + "): " + first);
    }
    return new Relayed(How.ENDED, 0, ending, prompted && atPrompt && prompt != null);
  }

  /** Answers a request for a line: from the prompt (JLine, here) or from stdin. */
  private void answer(DacProcess c, Wire.Ask ask) throws Wire.Broken {
    String line;
    int width = 0;
    if (ask.prompt()) {
      atPrompt = true;
      if (prompt == null) {
        prompt = PromptReader.open(err);
      } else if (promptInterrupt != null) {
        // JLine has Ctrl+C back while a line is typed: it clears the line.
        promptInterrupt.restore();
        promptInterrupt = null;
      }
      line = prompt.read(ask.text());
      width = prompt.width();
      if (line != null) {
        runningLine = line;
        promptInterrupt = Signals.handle("INT", this::interrupted);
      }
    } else {
      line = stdinLine();
    }
    try {
      if (line == null) {
        c.send(Wire.Kind.NO_MORE_LINES, new byte[0]);
      } else {
        c.send(Wire.Kind.LINE, new Wire.Line(line, width).body());
      }
    } catch (IOException gone) {
      // It ended: its replies say how.
    }
  }

  private String stdinLine() {
    if (stdin == null) {
      stdin = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    }
    try {
      return stdin.readLine();
    } catch (IOException e) {
      return null;
    }
  }

  /**
   * Ctrl+C: it ends the part of the command that said it can be ended (once); otherwise it stops
   * the run.
   */
  private void interrupted() {
    DacProcess c = child;
    if (c != null && cancellable.compareAndSet(true, false)) {
      try {
        c.send(Wire.Kind.CANCEL, new byte[0]);
      } catch (IOException gone) {
        // It ended: the main thread says how.
      }
      return;
    }
    stop("SIGINT");
  }

  /**
   * Stops the run on the user's signal (on the signal's thread): the DAC process is told to stop
   * (it lets a paused process go) and killed if it has not ended in time or at a second signal (the
   * kernel lets the process go), then one line, then the exit: 128 + the signal, as for any Unix
   * tool.
   */
  private void stop(String signal) {
    if (!stopped.compareAndSet(null, signal)) {
      // A second Ctrl+C does not wait for the DAC process: the kernel lets the process go.
      DacProcess c = child;
      if (c != null) {
        c.kill();
      }
      return;
    }
    DacProcess c = child;
    if (c != null) {
      try {
        c.send(Wire.Kind.STOP, new byte[0]);
      } catch (IOException gone) {
        // Already ended.
      }
      c.awaitEnd(STOP_GRACE, false);
    }
    Wire.Target t = target;
    err.println(
        command
            + ": stopped by "
            + signal
            + (t != null && t.isLive() ? "; " + t.what() + " was let go" : ""));
    err.flush();
    stopSaid.countDown();
    System.exit(exitCodeOf(signal));
  }

  private static int exitCodeOf(String signal) {
    return 128 + (signal.equals("SIGINT") ? 2 : 15);
  }

  /** Standard output failed (a reader that went away, a full disk): the DAC process stops. */
  private void outputClosed() {
    if (stopped.compareAndSet(null, "output")) {
      DacProcess c = child;
      if (c != null) {
        try {
          c.send(Wire.Kind.STOP, new byte[0]);
        } catch (IOException gone) {
          // Already ended.
        }
      }
    }
  }

  /** Waits for the signal's thread, which says why and exits. */
  private int awaitStop() {
    while (true) {
      try {
        stopSaid.await();
        return exitCodeOf(stopped.get());
      } catch (InterruptedException e) {
        // The exit comes.
      }
    }
  }

  /** What ended a DAC process that had not finished, and what to do: after {@code cmd: }. */
  String endedMessage(DacProcess.Ending e) {
    Wire.Target t = target;
    String how =
        broken != null
            ? "sent what is no reply (" + broken + ")"
            : e.signal() != null
                ? "ended with " + e.signal()
                : "ended (exit status " + e.exitValue() + ") before its command did";
    String where = t == null ? " before it read anything" : " while reading " + t.what();
    String released = t != null && t.isLive() ? t.what() + " was let go; " : "";
    String hint;
    if (broken == null && "SIGKILL".equals(e.signal()) && !e.crashed()) {
      hint =
          released + "it was killed (by a user, or by the kernel when memory ran short); try again";
    } else if (broken == null
        && e.signal() != null
        && !e.crashed()
        && !FAULTS.contains(e.signal())) {
      hint = released + "it was stopped from outside; try again";
    } else if (t != null && !t.isLive()) {
      hint =
          "the core may be damaged or the DAC may not match its runtime; try --dac with the"
              + " libmscordaccore.so of the runtime that wrote the core, or take the dump again";
    } else {
      hint =
          released
              + "the DAC may not match its runtime, or the runtime's memory is damaged; try again,"
              + " or --dac with the libmscordaccore.so of its runtime";
    }
    return "the DAC process " + how + where + ": " + hint;
  }

  /** With {@code -v}: the head of the JVM's crash report, under the line. */
  private void report(DacProcess.Ending e) {
    if (verbose) {
      e.report().forEach(line -> err.println("  " + line));
    }
    err.flush();
  }
}
