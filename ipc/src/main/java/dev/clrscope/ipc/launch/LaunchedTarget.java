package dev.clrscope.ipc.launch;

import dev.clrscope.ipc.DiagnosticsException;
import dev.clrscope.ipc.IpcTimeoutException;
import dev.clrscope.ipc.client.DiagnosticsClient;
import dev.clrscope.ipc.reverse.AdvertisedConnection;
import dev.clrscope.ipc.reverse.DiagnosticPortListener;
import dev.clrscope.ipc.reverse.ReverseConnectionSource;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
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
 */
public final class LaunchedTarget implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(LaunchedTarget.class);

  /** The variable that points a runtime at a diagnostic port. */
  public static final String PORTS_VARIABLE = "DOTNET_DiagnosticPorts";

  private final Process process;
  private final DiagnosticPortListener listener;
  private final DiagnosticsClient client;
  private final long runtimePid;
  private boolean resumed;

  private LaunchedTarget(
      Process process, DiagnosticPortListener listener, DiagnosticsClient client, long pid) {
    this.process = process;
    this.listener = listener;
    this.client = client;
    this.runtimePid = pid;
  }

  /**
   * Starts {@code command} suspended and waits for its runtime to connect.
   *
   * @param command the program and its arguments
   * @param connectTimeout how long the runtime may take to connect
   * @param replyTimeout the client's per-reply timeout
   * @param inheritIo whether the child shares clrscope's standard streams
   * @throws DiagnosticsException if the command cannot start, exits first, or never connects
   */
  public static LaunchedTarget start(
      List<String> command, Duration connectTimeout, Duration replyTimeout, boolean inheritIo) {
    DiagnosticPortListener listener = DiagnosticPortListener.createPrivate();
    Process process = null;
    try {
      ProcessBuilder pb = new ProcessBuilder(command);
      if (inheritIo) {
        pb.inheritIO();
      } else {
        pb.redirectInput(ProcessBuilder.Redirect.INHERIT);
        pb.redirectError(ProcessBuilder.Redirect.INHERIT);
      }
      String port = listener.socketPath() + ",connect,suspend";
      pb.environment().put(PORTS_VARIABLE, port);
      log.debug("starting {} with {}={}", command, PORTS_VARIABLE, port);
      try {
        process = pb.start();
        log.debug("started {} as pid {}: waiting for its runtime", command.get(0), process.pid());
      } catch (IOException e) {
        throw new DiagnosticsException(
            "could not start " + command.get(0) + ": " + e.getMessage(), e);
      }
      AdvertisedConnection first = awaitRuntime(listener, process, command, connectTimeout);
      DiagnosticsClient client =
          new DiagnosticsClient(new ReverseConnectionSource(listener, first), replyTimeout);
      return new LaunchedTarget(process, listener, client, first.advertisement().pid());
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
    client.resumeRuntime();
  }

  /** Waits for the child to exit and returns its exit code. */
  public int waitForExit() throws InterruptedException {
    int code = process.waitFor();
    log.debug("pid {} exited with code {}", process.pid(), code);
    return code;
  }

  /** Stops listening. The child keeps running if it has been resumed; else it is killed. */
  @Override
  public void close() {
    if (!resumed && process.isAlive()) {
      log.debug("killing pid {}: its runtime was never resumed", process.pid());
      process.destroyForcibly();
    }
    listener.close();
  }
}
