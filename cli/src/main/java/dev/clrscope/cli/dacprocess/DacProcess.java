package dev.clrscope.cli.dacprocess;

import dev.clrscope.cli.render.Terminal;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The front's handle on one DAC process: started at once, its requests written to its stdin, its
 * replies read from its stdout, its stderr (the JVM's alone) drained on a thread of its own so that
 * it never blocks, and kept to name how it ended. A JVM crash report there ends it at once: the
 * report's first lines are all the front uses, and a paused process must not wait for the rest.
 */
public final class DacProcess implements AutoCloseable {
  /** How much of its stderr is kept: its first bytes, where a crash report begins. */
  private static final int KEPT = 256 << 10;

  /** The line of a JVM's crash report that names the signal. */
  private static final Pattern SIGNAL_LINE = Pattern.compile("^#\\s+(SIG[A-Z0-9]+) \\(0x");

  /** The line that opens a JVM's crash report. */
  private static final String CRASH = "# A fatal error has been detected";

  /** How long after its crash report began a DAC process is let finish it before it is killed. */
  private static final long CRASH_GRACE_MILLIS = 300;

  private final Process process;
  private final OutputStream requests;
  private final DataInputStream replies;
  private final ByteArrayOutputStream stderr = new ByteArrayOutputStream();
  private final Thread drain;
  private volatile long crashSeenAt;

  private DacProcess(Process process) {
    this.process = process;
    this.requests = process.getOutputStream();
    this.replies = Wire.reading(process.getInputStream());
    this.drain = new Thread(this::drainStderr, "clrscope-dac-stderr " + process.pid());
    drain.setDaemon(true);
    drain.start();
  }

  /**
   * Starts a DAC process.
   *
   * @throws IOException when it cannot be started
   */
  public static DacProcess start() throws IOException {
    return start(DacCommandLine.command());
  }

  /** Starts a DAC process with this command (its last word {@link DacHost}). */
  static DacProcess start(List<String> command) throws IOException {
    return new DacProcess(new ProcessBuilder(command).start());
  }

  /**
   * What a command line run through {@link #run} came to.
   *
   * @param exitCode its exit code, or null when the DAC process ended under it
   * @param ending how the DAC process ended under it, or null
   * @param timedOut whether it was killed for running past its limit
   */
  public record Result(
      Integer exitCode, Ending ending, boolean timedOut, byte[] stdout, String stderr) {}

  /**
   * Runs one command line here, with no terminal and no line to read, for a program rather than a
   * person: what it printed and how it ended. The process serves the next command line after it,
   * unless it ended under this one (a fault, or killed at {@code limit}).
   */
  public Result run(List<String> words, Duration limit) throws IOException {
    send(
        Wire.Kind.RUN,
        new Wire.Run(words, new Terminal.Facts(false, Terminal.Size.NONE, false), false).body());
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    java.util.concurrent.atomic.AtomicBoolean late =
        new java.util.concurrent.atomic.AtomicBoolean();
    Thread watch =
        new Thread(
            () -> {
              try {
                Thread.sleep(limit.toMillis());
                late.set(true);
                process.destroyForcibly();
              } catch (InterruptedException ended) {
                // In time.
              }
            },
            "clrscope-dac-limit " + process.pid());
    watch.setDaemon(true);
    watch.start();
    try {
      for (Wire.Frame f = safeNext(); f != null; f = safeNext()) {
        switch (f.kind()) {
          case OUT -> out.write(f.body());
          case ERR -> err.write(f.body());
          case ASK -> send(Wire.Kind.NO_MORE_LINES, new byte[0]);
          case END -> {
            return new Result(
                Wire.code(f.body()),
                null,
                false,
                out.toByteArray(),
                err.toString(StandardCharsets.UTF_8));
          }
          case NOT_MINE -> {
            return new Result(null, null, false, out.toByteArray(), "not a DAC command");
          }
          default -> {
            // NAME, TARGET, DONE: for a person's front.
          }
        }
      }
    } finally {
      watch.interrupt();
    }
    dropReplies();
    Ending ending = awaitEnd(Duration.ofSeconds(10), false);
    return new Result(
        null, ending, late.get(), out.toByteArray(), err.toString(StandardCharsets.UTF_8));
  }

  /** The next reply, or null when there is none to trust (its end, a broken frame). */
  private Wire.Frame safeNext() {
    try {
      return next();
    } catch (IOException e) {
      return null;
    }
  }

  /** Its process id. */
  public long pid() {
    return process.pid();
  }

  /** Sends a request; an {@link IOException} when it is gone. */
  void send(Wire.Kind kind, byte[] body) throws IOException {
    synchronized (requests) {
      Wire.write(requests, kind, body);
      requests.flush();
    }
  }

  /**
   * The next reply, or null once it closed its stdout (it has ended, or is ending).
   *
   * @throws Wire.Broken when a reply breaks the protocol
   */
  Wire.Frame next() throws IOException {
    return Wire.read(replies);
  }

  /**
   * Reads and drops whatever else it writes to stdout, on a thread of its own, once its replies can
   * no longer be trusted: a JVM whose stdout is full would never get to its crash report.
   */
  void dropReplies() {
    Thread t =
        new Thread(
            () -> {
              try {
                replies.transferTo(OutputStream.nullOutputStream());
              } catch (IOException e) {
                // Its end.
              }
            },
            "clrscope-dac-dropped " + process.pid());
    t.setDaemon(true);
    t.start();
  }

  /** Closes its stdin: after its last command it ends; in the middle of one, it stops. */
  void endRequests() {
    synchronized (requests) {
      try {
        requests.close();
      } catch (IOException e) {
        // Gone already.
      }
    }
  }

  /** Kills it (SIGKILL): a paused process is let go by the kernel. */
  void kill() {
    process.destroyForcibly();
  }

  /** Whether it is still running. */
  boolean isAlive() {
    return process.isAlive();
  }

  /**
   * Waits for it to end, at most {@code limit}, then kills it, and says how it ended.
   *
   * @param finished whether it said its command line ended (END or NOT_MINE)
   */
  Ending awaitEnd(Duration limit, boolean finished) {
    boolean interrupted = false;
    try {
      long deadline = System.nanoTime() + limit.toNanos();
      while (true) {
        try {
          long left = deadline - System.nanoTime();
          if (left <= 0 || process.waitFor(left, TimeUnit.NANOSECONDS)) {
            break;
          }
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      if (process.isAlive()) {
        process.destroyForcibly();
        while (true) {
          try {
            process.waitFor();
            break;
          } catch (InterruptedException e) {
            interrupted = true;
          }
        }
      }
      try {
        drain.join(2_000);
      } catch (InterruptedException e) {
        interrupted = true;
      }
      return Ending.of(process.exitValue(), stderrText(), finished);
    } finally {
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
  }

  /** What it wrote to stderr (the first {@value #KEPT} bytes of it). */
  String stderrText() {
    synchronized (stderr) {
      return stderr.toString(StandardCharsets.UTF_8);
    }
  }

  private void drainStderr() {
    byte[] buf = new byte[8192];
    try (InputStream in = process.getErrorStream()) {
      for (int n; (n = in.read(buf)) > 0; ) {
        keep(buf, n);
        if (crashSeenAt == 0 && n > 0 && stderrText().contains(CRASH)) {
          crashSeenAt = System.nanoTime();
          Thread killer = new Thread(this::killAfterGrace, "clrscope-dac-crashed");
          killer.setDaemon(true);
          killer.start();
        }
      }
    } catch (IOException e) {
      // Its end.
    }
  }

  private void keep(byte[] buf, int n) {
    synchronized (stderr) {
      stderr.write(buf, 0, Math.min(n, KEPT - stderr.size()));
    }
  }

  private void killAfterGrace() {
    try {
      Thread.sleep(CRASH_GRACE_MILLIS);
    } catch (InterruptedException e) {
      // Kill now.
    }
    process.destroyForcibly();
  }

  /** Ends it: its stdin closed, then killed if it has not ended within a few seconds. */
  @Override
  public void close() {
    endRequests();
    awaitEnd(Duration.ofSeconds(5), true);
  }

  /**
   * How a DAC process ended.
   *
   * @param exitValue its exit status, 128 + N for signal N
   * @param signal the signal that ended it, from its crash report or its status (SIGSEGV), or null
   * @param report the lines of its crash report that say what failed where, or none
   * @param crashed whether its JVM wrote a crash report: a fault in native code, the DAC's most
   *     likely
   * @param finished whether it said its command line ended
   */
  public record Ending(
      int exitValue, String signal, List<String> report, boolean crashed, boolean finished) {
    static Ending of(int exitValue, String stderr, boolean finished) {
      List<String> report = new ArrayList<>();
      String signal = null;
      int at = stderr.indexOf(CRASH);
      if (at >= 0) {
        String[] lines = stderr.substring(at).split("\n", 40);
        for (int i = 0; i < lines.length && lines[i].startsWith("#"); i++) {
          Matcher m = SIGNAL_LINE.matcher(lines[i]);
          if (m.find()) {
            signal = signal == null ? m.group(1) : signal;
            report.add(lines[i]);
          } else if (lines[i].startsWith("# Problematic frame") && i + 1 < lines.length) {
            report.add(lines[i]);
            report.add(lines[++i]);
          }
        }
      }
      if (signal == null && exitValue > 128 && exitValue < 128 + 65) {
        signal = signalName(exitValue - 128);
      }
      return new Ending(exitValue, signal, List.copyOf(report), at >= 0, finished);
    }
  }

  /** Linux's name of signal {@code n}. */
  static String signalName(int n) {
    String[] names = {
      null, "SIGHUP", "SIGINT", "SIGQUIT", "SIGILL", "SIGTRAP", "SIGABRT", "SIGBUS", "SIGFPE",
      "SIGKILL", "SIGUSR1", "SIGSEGV", "SIGUSR2", "SIGPIPE", "SIGALRM", "SIGTERM"
    };
    return n > 0 && n < names.length ? names[n] : "signal " + n;
  }
}
