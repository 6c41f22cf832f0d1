package dev.clrscope.ipc.launch;

import dev.clrscope.ipc.DiagnosticsException;
import dev.clrscope.ipc.IpcTimeoutException;
import dev.clrscope.ipc.client.DiagnosticsClient;
import dev.clrscope.ipc.reverse.AdvertisedConnection;
import dev.clrscope.ipc.reverse.DiagnosticPortListener;
import dev.clrscope.ipc.reverse.ReverseConnectionSource;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A child process started under clrscope with its runtime suspended at startup on a private
 * diagnostic port, so that a session can begin before the app runs any code.
 *
 * <p>The sequence: listen on a fresh socket in a private directory; start the child with {@code
 * DOTNET_DiagnosticPorts=SOCKET,connect,suspend}; accept its advertisement; let the caller start
 * whatever it needs; then {@link #resume()}, which first removes the variable from the child's own
 * environment (so that the child's children, such as the test hosts {@code dotnet test} starts, do
 * not also suspend waiting for a port nobody serves) and then sends ResumeRuntime.
 *
 * <p>The child lives no longer than clrscope: it is started through {@code setpriv --pdeathsig
 * TERM} where that exists (so it gets SIGTERM even if clrscope is killed with SIGKILL, and never
 * stays suspended for good), and a shutdown hook ends a child still running when clrscope exits
 * (SIGTERM, then SIGKILL after {@link #GRACE}) and removes the private directory of its port.
 */
public final class LaunchedTarget implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(LaunchedTarget.class);

  /** The variable that points a runtime at a diagnostic port. */
  public static final String PORTS_VARIABLE = "DOTNET_DiagnosticPorts";

  /** How long a child has to exit after it was asked to (a signal passed on, or clrscope ends). */
  public static final Duration GRACE = Duration.ofSeconds(10);

  /** util-linux's setpriv, which sets the parent-death signal and then runs the command. */
  private static final Path SETPRIV = Path.of("/usr/bin/setpriv");

  private final Process process;
  private final DiagnosticPortListener listener;
  private final DiagnosticsClient client;
  private final long runtimePid;
  private final long startedNanos;
  private final long waitingNanos;
  private final Thread exitHook;
  private boolean resumed;
  private volatile Long resumedNanos;

  private LaunchedTarget(
      Process process,
      DiagnosticPortListener listener,
      DiagnosticsClient client,
      long pid,
      long startedNanos,
      long waitingNanos) {
    this.process = process;
    this.listener = listener;
    this.client = client;
    this.runtimePid = pid;
    this.startedNanos = startedNanos;
    this.waitingNanos = waitingNanos;
    this.exitHook = new Thread(this::endWithClrscope, "clrscope-child-exit");
    Runtime.getRuntime().addShutdownHook(exitHook);
  }

  /**
   * Copies a launched child's stdout to clrscope's stderr, as it comes, on a daemon thread: raw
   * bytes, through the process's own descriptor, so that nothing clrscope buffers for its data
   * mixes with it.
   */
  private static void copyToStderr(InputStream childOut) {
    Thread copier =
        new Thread(
            () -> {
              FileOutputStream err = new FileOutputStream(FileDescriptor.err);
              byte[] buffer = new byte[8192];
              try {
                int n;
                while ((n = childOut.read(buffer)) >= 0) {
                  err.write(buffer, 0, n);
                }
              } catch (IOException e) {
                // The child closed its stdout or clrscope's stderr went away: nothing to copy.
              }
            },
            "clrscope-child-stdout");
    copier.setDaemon(true);
    copier.start();
  }

  /**
   * Starts {@code command} suspended and waits for its runtime to connect.
   *
   * @param command the program and its arguments
   * @param connectTimeout how long the runtime may take to connect
   * @param replyTimeout the client's per-reply timeout
   * @param showIo whether the child's stdout and stderr go to clrscope's stderr (never its stdout,
   *     which holds clrscope's data); if not, they are discarded. Either way it reads clrscope's
   *     stdin
   * @throws DiagnosticsException if the command cannot start, exits first, or never connects
   */
  public static LaunchedTarget start(
      List<String> command, Duration connectTimeout, Duration replyTimeout, boolean showIo) {
    if (!findable(command.get(0))) {
      throw new DiagnosticsException(
          "could not start " + command.get(0) + ": no such program (searched PATH)");
    }
    DiagnosticPortListener listener = DiagnosticPortListener.createPrivate();
    Process process = null;
    try {
      ProcessBuilder pb = new ProcessBuilder(withParentDeathSignal(command));
      pb.redirectInput(ProcessBuilder.Redirect.INHERIT);
      if (showIo) {
        // The child's stdout comes through a pipe that is copied to clrscope's stderr.
        pb.redirectError(ProcessBuilder.Redirect.INHERIT);
      } else {
        pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        pb.redirectError(ProcessBuilder.Redirect.DISCARD);
      }
      String port = listener.socketPath() + ",connect,suspend";
      pb.environment().put(PORTS_VARIABLE, port);
      log.debug("starting {} with {}={}", command, PORTS_VARIABLE, port);
      long startedNanos = System.nanoTime();
      try {
        process = pb.start();
        log.debug("started {} as pid {}: waiting for its runtime", command.get(0), process.pid());
        if (showIo) {
          copyToStderr(process.getInputStream());
        }
      } catch (IOException e) {
        throw new DiagnosticsException(
            "could not start " + command.get(0) + ": " + e.getMessage(), e);
      }
      AdvertisedConnection first = awaitRuntime(listener, process, command, connectTimeout);
      long waitingNanos = System.nanoTime();
      DiagnosticsClient client =
          new DiagnosticsClient(new ReverseConnectionSource(listener, first), replyTimeout);
      return new LaunchedTarget(
          process, listener, client, first.advertisement().pid(), startedNanos, waitingNanos);
    } catch (RuntimeException e) {
      if (process != null) {
        log.debug("killing pid {}: {}", process.pid(), e.getMessage());
        process.destroyForcibly();
      }
      listener.close();
      throw e;
    }
  }

  private static AdvertisedConnection awaitRuntime(
      DiagnosticPortListener listener, Process process, List<String> command, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      try {
        return listener.accept(Duration.ofMillis(200));
      } catch (IpcTimeoutException e) {
        if (!process.isAlive()) {
          throw new DiagnosticsException(
              command.get(0)
                  + " exited with code "
                  + process.exitValue()
                  + " before a .NET runtime connected: is it a .NET (Core 5+) app?");
        }
        if (System.nanoTime() > deadline) {
          throw new IpcTimeoutException(
              command.get(0)
                  + " started (pid "
                  + process.pid()
                  + ") but no .NET runtime connected within "
                  + timeout.toSeconds()
                  + " s: is it a .NET (Core 5+) app, and is DOTNET_EnableDiagnostics unset?");
        }
      }
    }
  }

  /**
   * Whether {@code program} can be run: a path to an executable file, or a name found on PATH.
   * Checked first, because through setpriv a missing program is only an exit code.
   */
  private static boolean findable(String program) {
    if (program.contains("/")) {
      return Files.isExecutable(Path.of(program));
    }
    String path = System.getenv("PATH");
    if (path == null || !Files.isExecutable(SETPRIV)) {
      return true; // Let the JDK say what it finds.
    }
    for (String dir : path.split(java.io.File.pathSeparator, -1)) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) {
        return true;
      }
    }
    return false;
  }

  /**
   * {@code command}, run through setpriv so that it gets SIGTERM when clrscope dies; as it is where
   * setpriv is missing (not Linux, or no util-linux). setpriv execs the command: the pid stays.
   */
  static List<String> withParentDeathSignal(List<String> command) {
    if (!Files.isExecutable(SETPRIV)) {
      return command;
    }
    List<String> wrapped =
        new ArrayList<>(List.of(SETPRIV.toString(), "--pdeathsig", "TERM", "--"));
    wrapped.addAll(command);
    return wrapped;
  }

  /**
   * Passes a signal on to the child ({@code INT}, {@code TERM}): {@code kill -NAME PID}, or SIGTERM
   * through the JDK where {@code kill} cannot be run.
   */
  public void signal(String name) {
    if (!process.isAlive()) {
      return;
    }
    log.debug("passing SIG{} on to pid {}", name, process.pid());
    try {
      Process kill =
          new ProcessBuilder("kill", "-" + name, Long.toString(process.pid()))
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      if (kill.waitFor(5, TimeUnit.SECONDS) && kill.exitValue() == 0) {
        return;
      }
    } catch (IOException e) {
      log.debug("kill failed: {}", e.toString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    process.destroy();
  }

  /**
   * Waits up to {@code timeout} for the child to exit; if it has not, kills it (SIGKILL) and waits
   * for that.
   *
   * @return the exit code, and whether it had to be killed
   */
  public Ending awaitExit(Duration timeout) throws InterruptedException {
    if (process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
      return new Ending(process.exitValue(), false);
    }
    log.debug(
        "pid {} still runs {} after it was asked to exit: killing it", process.pid(), timeout);
    process.destroyForcibly();
    return new Ending(process.waitFor(), true);
  }

  /**
   * How the child ended.
   *
   * @param exitCode its exit code
   * @param killed it had to be killed
   */
  public record Ending(int exitCode, boolean killed) {}

  /** On clrscope's exit: end a child still running, and remove the port's private directory. */
  private void endWithClrscope() {
    try {
      if (process.isAlive()) {
        log.debug("clrscope is exiting: ending pid {}", process.pid());
        process.destroy();
        awaitExit(GRACE);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      listener.close();
    }
  }

  /** A client for the child's runtime, over the reverse connection. */
  public DiagnosticsClient client() {
    return client;
  }

  /** The child process. */
  public Process process() {
    return process;
  }

  /** The pid the runtime advertised. */
  public long runtimePid() {
    return runtimePid;
  }

  /**
   * Lets the child's runtime start the app, once. The port variable is first cleared in the child's
   * environment so its own children start normally.
   */
  public void resume() {
    if (resumed) {
      return;
    }
    resumed = true;
    log.debug(
        "resuming the runtime of pid {} after clearing {} in its environment",
        runtimePid,
        PORTS_VARIABLE);
    client.setEnvironmentVariable(PORTS_VARIABLE, "");
    resumedNanos = System.nanoTime();
    client.resumeRuntime();
  }

  /** When the child reached each step of its start; {@code null} until it is resumed. */
  public LaunchClock clock() {
    Long resumedAt = resumedNanos;
    return resumedAt == null ? null : new LaunchClock(startedNanos, waitingNanos, resumedAt);
  }

  /** Waits for the child to exit and returns its exit code. */
  public int waitForExit() throws InterruptedException {
    int code = process.waitFor();
    log.debug("pid {} exited with code {}", process.pid(), code);
    return code;
  }

  /**
   * Stops listening. The child keeps running if it has been resumed (until clrscope exits); else it
   * is killed.
   */
  @Override
  public void close() {
    if (!resumed && process.isAlive()) {
      log.debug("killing pid {}: its runtime was never resumed", process.pid());
      process.destroyForcibly();
    }
    listener.close();
  }
}
