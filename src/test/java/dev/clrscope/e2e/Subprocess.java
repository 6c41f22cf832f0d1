package dev.clrscope.e2e;

import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A started child process with both output streams pumped and its stdin kept as a pipe: the common
 * part of {@link TargetProcess} and {@link RunningCli}. Failures to start or to talk to the process
 * become {@link AssertionError}s carrying everything the process printed.
 */
final class Subprocess implements AutoCloseable {
  private static final Duration KILL_GRACE = Duration.ofSeconds(10);
  private static final Duration DRAIN_GRACE = Duration.ofSeconds(5);

  private final List<String> command;
  private final Process process;
  private final LinePump stdout;
  private final LinePump stderr;
  private final Writer stdin;

  private Subprocess(List<String> command, Process process) {
    this.command = List.copyOf(command);
    this.process = process;
    String name = Path.of(command.get(0)).getFileName() + "-" + process.pid();
    this.stdout = new LinePump(process.getInputStream(), name + "-stdout");
    this.stderr = new LinePump(process.getErrorStream(), name + "-stderr");
    this.stdin = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
  }

  /**
   * Starts {@code command}.
   *
   * @param env variables set on top of this JVM's environment; a {@code null} value removes one
   */
  static Subprocess start(List<String> command, Map<String, String> env, Path workingDir) {
    ProcessBuilder builder = new ProcessBuilder(command);
    if (workingDir != null) {
      builder.directory(workingDir.toFile());
    }
    // Map.forEach tolerates the null values that mean "remove"; Map.copyOf would not.
    env.forEach(
        (name, value) -> {
          if (value == null) {
            builder.environment().remove(name);
          } else {
            builder.environment().put(name, value);
          }
        });
    try {
      return new Subprocess(command, builder.start());
    } catch (IOException e) {
      throw new AssertionError("Could not start " + command, e);
    }
  }

  Process process() {
    return process;
  }

  List<String> command() {
    return command;
  }

  /**
   * The next stdout line not handed out before.
   *
   * @throws EOFException if stdout ended (the process exited) first
   * @throws TimeoutException if no line came within {@code timeout}
   */
  String nextLine(Duration timeout) throws EOFException, TimeoutException {
    try {
      return stdout.nextLine(timeout);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("Interrupted while reading from " + describe(), e);
    }
  }

  void writeLine(String line) {
    try {
      stdin.write(line);
      stdin.write('\n');
      stdin.flush();
    } catch (IOException e) {
      throw new AssertionError("Could not write '" + line + "' to " + describe(), e);
    }
  }

  void closeStdin() {
    try {
      stdin.close();
    } catch (IOException e) {
      // The process already exited and closed its end; there is nothing left to tell it.
    }
  }

  /** Waits for the exit and for both streams to be read to their end. */
  boolean waitFor(Duration timeout) {
    try {
      if (!process.waitFor(timeout.toNanos(), TimeUnit.NANOSECONDS)) {
        return false;
      }
      // A grandchild that inherited the pipes can keep them open; don't wait for it forever.
      stdout.awaitEnd(DRAIN_GRACE);
      stderr.awaitEnd(DRAIN_GRACE);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError("Interrupted while waiting for " + describe(), e);
    }
  }

  String stdout() {
    return stdout.text();
  }

  String stderr() {
    return stderr.text();
  }

  /**
   * Kills the process and everything it started. Descendants go first: once the parent is gone they
   * are re-parented and can no longer be found through it.
   */
  void killTree() {
    process.descendants().forEach(ProcessHandle::destroyForcibly);
    process.destroyForcibly();
    try {
      process.waitFor(KILL_GRACE.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** The command and everything it printed, for failure messages. */
  String describe() {
    String state = process.isAlive() ? "still running" : "exited with code " + process.exitValue();
    return String.join(" ", command)
        + " (pid "
        + process.pid()
        + ", "
        + state
        + ")\n--- stdout ---\n"
        + stdout.text()
        + "--- stderr ---\n"
        + stderr.text();
  }

  @Override
  public void close() {
    if (process.isAlive()) {
      killTree();
    }
    closeStdin();
    waitFor(KILL_GRACE);
  }
}
