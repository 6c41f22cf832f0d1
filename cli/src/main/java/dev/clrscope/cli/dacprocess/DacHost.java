package dev.clrscope.cli.dacprocess;

import dev.clrscope.cli.Main;
import dev.clrscope.cli.commands.DacCommand;
import dev.clrscope.cli.output.RunOutput;
import dev.clrscope.cli.render.Terminal;
import dev.clrscope.cli.session.Signals;
import dev.clrscope.dac.DacSession;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * The DAC process: the one process of a clrscope run that loads the runtime's DAC, opens the core
 * or pauses the live process (its ptrace tracer), and runs the command line that reads through it.
 * The front (the process the user talks to) starts it and speaks {@link Wire}'s frames with it over
 * its stdin and stdout; its stderr is for the JVM alone (a crash report, which the front reads and
 * never shows whole). What the command prints on System.out and System.err goes to the front as
 * frames, and the front draws it where the user sees it.
 *
 * <p>It runs each command line the front sends (one for the CLI), then waits for the next or the
 * end of its stdin. {@code STOP}, or its stdin ending in the middle of a command (the front is
 * gone), ends the JVM at once: the shutdown hooks let a paused process go, and if they cannot, the
 * kernel does when this process is gone.
 *
 * <p>The commands call the static methods here ({@link #reading}, {@link #readLine}, {@link
 * #whileRunning}, {@link #commandDone}); outside a DAC process they do nothing, or say that a
 * command meant for one ran elsewhere.
 */
public final class DacHost {
  /** The DAC process's main class, as the front starts it. */
  static final String MAIN = DacHost.class.getName();

  /** Output is sent in frames of at most this many bytes. */
  private static final int PIECE = 64 << 10;

  /** How often output a command is still writing is sent on, for a person watching it stream. */
  private static final long FLUSH_MILLIS = 100;

  /** The one host of this process, or null outside a DAC process. */
  private static volatile DacHost current;

  private final DataInputStream requests;
  private final OutputStream wire;
  private final BlockingQueue<Object> runs = new LinkedBlockingQueue<>();
  private final BlockingQueue<Object> lines = new LinkedBlockingQueue<>();
  private final PrintStream out;
  private final PrintStream err;
  private volatile Runnable onCancel;
  private volatile Wire.Run run;
  private volatile boolean running;
  private boolean notMine;

  /** What the queues hold at the end of the requests. */
  private static final Object NO_MORE = new Object();

  private DacHost(InputStream requests, OutputStream replies) {
    this.requests = Wire.reading(requests);
    this.wire = new BufferedOutputStream(replies, PIECE + 8);
    this.out =
        new PrintStream(
            new BufferedOutputStream(new Frames(Wire.Kind.OUT), PIECE),
            false,
            StandardCharsets.UTF_8);
    this.err = new PrintStream(new ErrFrames(), true, StandardCharsets.UTF_8);
  }

  /** Runs the DAC process: command lines from stdin, replies on stdout. */
  public static void main(String[] args) {
    // The JVM's own output (crash reports, warnings) is on stderr by the front's flags; from here
    // on
    // fd 1 carries frames only, so System.out must never reach it.
    DacHost host =
        new DacHost(
            new FileInputStream(FileDescriptor.in), new FileOutputStream(FileDescriptor.out));
    System.setOut(host.out);
    System.setErr(host.err);
    System.setIn(InputStream.nullInputStream());
    // Every command that stays here reads through the DAC over JNA, whose native part is unpacked
    // and loaded on first use (about 50 ms): done on the second core while this one parses.
    Thread jna = new Thread(DacHost::loadJna, "clrscope-dac-jna");
    jna.setDaemon(true);
    jna.start();
    // The front has Ctrl+C: in its own session this process gets none from the terminal, and where
    // it could not be put in one, a Ctrl+C is for the front to pass on as CANCEL or STOP.
    Signals.ignore("INT");
    current = host;
    host.serve();
    System.exit(0);
  }

  private static void loadJna() {
    try {
      Class.forName("com.sun.jna.Native", true, DacHost.class.getClassLoader());
    } catch (ClassNotFoundException | LinkageError e) {
      // The command that uses the DAC meets it there, and says so.
    }
  }

  /**
   * Runs one command line as a DAC process would, in this process, its frames thrown away: the
   * AppCDS training run's way to have the DAC process's classes archived (the archive is this
   * process's). Not for anything else: this process is a DAC process while it runs.
   */
  public static void trainingRun(String... words) {
    PrintStream oldOut = System.out;
    PrintStream oldErr = System.err;
    Wire.Run run =
        new Wire.Run(List.of(words), new Terminal.Facts(false, Terminal.Size.NONE, false), false);
    java.io.ByteArrayOutputStream request = new java.io.ByteArrayOutputStream();
    try {
      Wire.write(request, Wire.Kind.RUN, run.body());
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    DacHost host =
        new DacHost(
            new java.io.ByteArrayInputStream(request.toByteArray()),
            OutputStream.nullOutputStream());
    System.setOut(host.out);
    System.setErr(host.err);
    current = host;
    try {
      host.runs.add(run);
      host.runs.add(NO_MORE);
      host.serveRuns();
    } finally {
      current = null;
      Terminal.assumeFront(null);
      System.setOut(oldOut);
      System.setErr(oldErr);
    }
  }

  /** Whether this process is a DAC process. */
  public static boolean isHost() {
    return current != null;
  }

  private void serve() {
    Thread reader = new Thread(this::readRequests, "clrscope-dac-requests");
    reader.setDaemon(true);
    reader.start();
    Thread flusher = new Thread(this::flushNow, "clrscope-dac-flush");
    flusher.setDaemon(true);
    flusher.start();
    serveRuns();
  }

  /** Runs the command lines as they come, until there are no more. */
  private void serveRuns() {
    while (true) {
      Object next = take(runs);
      if (next == NO_MORE) {
        return;
      }
      run = (Wire.Run) next;
      notMine = false;
      Terminal.assumeFront(run.terminal());
      running = true;
      int code;
      // The core the command reads, opened while the command is parsed (as long as opening it
      // takes, on the other core), and its graph read too when the command reads that first: the
      // command takes it if it asks for it.
      Path core = DacCommand.coreToOpenAhead(run.words());
      if (core != null) {
        DacSession.openCoreAhead(core, DacCommand.readsGraphFirst(run.words()));
      }
      try {
        code = Main.run(RunOutput.standard(), run.words().toArray(String[]::new));
      } catch (RuntimeException | Error e) {
        // Main reports every failure of a command itself: this is a bug of the host.
        err.println("clrscope: internal error, please report it:");
        e.printStackTrace(err);
        code = 70;
      } finally {
        DacSession.dropCoreOpenedAhead();
      }
      running = false;
      out.flush();
      err.flush();
      if (notMine) {
        send(Wire.Kind.NOT_MINE, new byte[0]);
      } else {
        send(Wire.Kind.END, Wire.code(code));
      }
      lines.clear();
    }
  }

  private static Object take(BlockingQueue<Object> queue) {
    while (true) {
      try {
        return queue.take();
      } catch (InterruptedException e) {
        // Only the requests end the wait.
      }
    }
  }

  private void readRequests() {
    try {
      for (Wire.Frame f = Wire.read(requests); f != null; f = Wire.read(requests)) {
        switch (f.kind()) {
          case RUN -> runs.add(Wire.Run.of(f.body()));
          case LINE -> lines.add(Wire.Line.of(f.body()));
          case NO_MORE_LINES -> lines.add(NO_MORE);
          case CANCEL -> cancel();
          case STOP -> stop();
          default -> throw new Wire.Broken("a " + f.kind() + " frame from the front");
        }
      }
    } catch (IOException e) {
      // A front that breaks the protocol is gone as far as this process is concerned.
      stop();
    }
    // The front closed its end: after the last command, the process ends; in the middle of one,
    // the front is gone and so is the reason to go on.
    if (running) {
      stop();
    }
    runs.add(NO_MORE);
    lines.add(NO_MORE);
  }

  /**
   * Runs the command's cancel action; one that came after its part ended (the front had not yet
   * heard so) is said back, for the front to take the Ctrl+C as it would have then.
   */
  private void cancel() {
    Runnable cancel = onCancel;
    if (cancel != null) {
      cancel.run();
    } else {
      send(Wire.Kind.CANCEL_MISSED, new byte[0]);
    }
  }

  /** Ends the process: the shutdown hooks let a paused process go first. */
  private static void stop() {
    System.exit(0);
  }

  private void flushNow() {
    while (true) {
      try {
        Thread.sleep(FLUSH_MILLIS);
      } catch (InterruptedException e) {
        return;
      }
      if (running) {
        out.flush();
      }
    }
  }

  /** Sends one frame now; a front that is gone ends this process. */
  private void send(Wire.Kind kind, byte[] body, int offset, int length) {
    synchronized (wire) {
      try {
        Wire.write(wire, kind, body, offset, length);
        wire.flush();
      } catch (IOException e) {
        stop();
      }
    }
  }

  private void send(Wire.Kind kind, byte[] body) {
    send(kind, body, 0, body.length);
  }

  /** System.out's bytes, as frames of one kind. */
  private final class Frames extends OutputStream {
    private final Wire.Kind kind;

    Frames(Wire.Kind kind) {
      this.kind = kind;
    }

    @Override
    public void write(int b) {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) {
      for (int at = off; at < off + len; at += PIECE) {
        send(kind, b, at, Math.min(PIECE, off + len - at));
      }
    }
  }

  /**
   * System.err's bytes: what the command wrote to System.out before goes first, so that the front
   * sees both in the order they were written, as a terminal would.
   */
  private final class ErrFrames extends OutputStream {
    private final Frames frames = new Frames(Wire.Kind.ERR);

    @Override
    public void write(int b) {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) {
      out.flush();
      frames.write(b, off, len);
    }
  }

  // What the commands call.

  /**
   * Says what the command is about to read, before it opens it: the front names it if this process
   * ends under it, and says a live process was let go.
   *
   * @param pid the live process's id, or 0 for a core
   * @param what {@code core /path/app.core} or {@code process 1234}
   */
  public static void reading(int pid, String what) {
    DacHost h = current;
    if (h != null) {
      h.out.flush();
      h.send(Wire.Kind.TARGET, new Wire.Target(pid, what).body());
    }
  }

  /** Says which command runs ({@code clrscope analyze}), once it is parsed. */
  public static void commandNamed(String qualifiedName) {
    DacHost h = current;
    if (h != null) {
      h.send(Wire.Kind.NAME, Wire.text(qualifiedName));
    }
  }

  /** Says one command of several (analyze's) has written all its output. */
  public static void commandDone() {
    DacHost h = current;
    if (h != null) {
      h.out.flush();
      h.send(Wire.Kind.DONE, new byte[0]);
    }
  }

  /**
   * The command line reads nothing through the DAC (help, or a guess from its words that was
   * wrong): the front runs it itself.
   *
   * @return the exit code to return meanwhile (unused)
   */
  public static int notMine() {
    DacHost h = current;
    if (h == null) {
      throw new IllegalStateException("not a DAC process");
    }
    h.notMine = true;
    return 0;
  }

  /** Whether the command line goes on from a DAC process that ended under it. */
  public static boolean resumed() {
    DacHost h = current;
    return h != null && h.run != null && h.run.resumed();
  }

  /** A line read for a command: its text, and the terminal's width as it was read (0 for none). */
  public record Line(String text, int width) {}

  /**
   * The next line: typed at the front's prompt (with its history and completion), or stdin's next
   * line.
   *
   * @param prompt whether a person types it at the prompt
   * @param promptText what the prompt shows
   * @return null at the end (Ctrl+D, the end of stdin)
   */
  public static Line readLine(boolean prompt, String promptText) {
    DacHost h = current;
    if (h == null) {
      throw new IllegalStateException("lines are read through the front, from a DAC process");
    }
    h.out.flush();
    h.err.flush();
    h.send(Wire.Kind.ASK, new Wire.Ask(prompt, promptText).body());
    Object l = take(h.lines);
    if (l == NO_MORE) {
      h.lines.add(NO_MORE);
      return null;
    }
    Wire.Line line = (Wire.Line) l;
    return new Line(line.text(), line.width());
  }

  /** A CANCEL's action, until closed. */
  public interface Armed extends AutoCloseable {
    @Override
    void close();
  }

  /**
   * Has the user's Ctrl+C end a part of the command, not the run, until the result is closed: the
   * front is told, sends its next Ctrl+C on as CANCEL, and that runs {@code cancel} (on another
   * thread: it must not block). One Ctrl+C is taken so; a second before the part has ended stops
   * the run, as Ctrl+C does outside such a part. Analyze's command at the prompt, triage's watch.
   */
  public static Armed whileRunning(Runnable cancel) {
    DacHost h = current;
    if (h == null) {
      return () -> {};
    }
    h.onCancel = cancel;
    h.send(Wire.Kind.CANCELLABLE, Wire.flag(true));
    return () -> {
      h.onCancel = null;
      h.send(Wire.Kind.CANCELLABLE, Wire.flag(false));
    };
  }
}
