package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clrscope.ipc.TargetNotFoundException;
import dev.clrscope.ipc.discovery.EndpointLocator;
import dev.clrscope.ipc.transport.IpcEndpoint;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code clrscope resume}: the way out for a runtime left waiting at startup, such as the child of
 * a clrscope killed between launching and resuming it.
 */
class ResumeCommandTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** Whether the runtime of {@code pid} listens on a socket the locator finds. */
  private static boolean listening(long pid) {
    EndpointLocator locator = new EndpointLocator();
    try {
      return locator.locate(pid).endpoint() instanceof IpcEndpoint.UnixSocket socket
          && Boolean.TRUE.equals(locator.isBound(socket.path()));
    } catch (TargetNotFoundException notYet) {
      return false;
    }
  }

  @Test
  void resumeLetsARuntimeThatWaitsAtStartupRun() throws Exception {
    try (Subprocess app =
        Subprocess.start(
            DotnetApps.command(
                DotnetApps.TARGET_APP, List.of("--no-stdin", "--exit-after-ms", "60000")),
            Map.of("DOTNET_DefaultDiagnosticPortSuspend", "1"),
            null)) {
      long pid = app.process().pid();
      // The runtime opens its diagnostic socket, then waits before running any managed code. A
      // socket file of this pid alone proves nothing: a dead process of the same pid may have left
      // one, so the wait is for a bound one.
      await().atMost(TIMEOUT).until(() -> listening(pid));
      assertThatThrownBy(() -> app.nextLine(Duration.ZERO))
          .as("no ready line while the runtime waits")
          .isInstanceOf(TimeoutException.class);

      // ps marks it, and says how to let it run.
      CliResult ps = Clrscope.run(TIMEOUT, "ps", "--format", "json");
      assertThat(stateOf(ps, pid)).isEqualTo("waiting");
      assertThat(ps.stderr())
          .contains(
              "pid "
                  + pid
                  + " waits at startup for a diagnostic tool: `clrscope resume -p "
                  + pid
                  + "`");

      CliResult result = Clrscope.run(TIMEOUT, "resume", "-p", Long.toString(pid));

      assertThat(result.exitCode()).as("%s", result).isZero();
      assertThat(result.stderr().strip())
          .isEqualTo("Resumed process " + pid + " (a running process is not affected)");
      JsonNode ready = JSON.readTree(app.nextLine(TIMEOUT));
      assertThat(ready.get("event").asText()).isEqualTo("ready");
      assertThat(ready.get("pid").asLong()).isEqualTo(pid);
      assertThat(stateOf(Clrscope.run(TIMEOUT, "ps", "--format", "json"), pid))
          .isEqualTo("running");

      // Resuming a running process changes nothing.
      CliResult again = Clrscope.run(TIMEOUT, "resume", "-p", Long.toString(pid));
      assertThat(again.exitCode()).as("%s", again).isZero();
      assertThat(app.process().isAlive()).isTrue();
    }
  }

  @Test
  void aRuntimeWaitingForAToolOnItsConnectPortIsNamedByPsAndResumedThere(@TempDir Path dir)
      throws Exception {
    Path port = dir.resolve("tool.sock");
    try (Subprocess app =
        Subprocess.start(
            DotnetApps.command(
                DotnetApps.TARGET_APP, List.of("--no-stdin", "--exit-after-ms", "60000")),
            // As clrscope launches a child: the runtime connects out to the tool's port and waits
            // there; `resume -p` on its default socket cannot release it, only a tool on the port.
            Map.of("DOTNET_DiagnosticPorts", port + ",connect,suspend"),
            null)) {
      long pid = app.process().pid();
      await()
          .atMost(TIMEOUT)
          .until(() -> stateOf(Clrscope.run(TIMEOUT, "ps", "--format", "json"), pid) != null);
      CliResult ps = Clrscope.run(TIMEOUT, "ps", "--format", "json");
      assertThat(stateOf(ps, pid)).isEqualTo("waiting");
      assertThat(ps.stderr())
          .contains(
              "pid "
                  + pid
                  + " waits at startup for a diagnostic tool: it waits for a tool on "
                  + port
                  + " (DOTNET_DiagnosticPorts); `clrscope resume --diagnostic-port "
                  + port
                  + "` lets it run");

      CliResult result = Clrscope.run(TIMEOUT, "resume", "--diagnostic-port", port.toString());

      assertThat(result.exitCode()).as("%s", result).isZero();
      JsonNode ready = JSON.readTree(app.nextLine(TIMEOUT));
      assertThat(ready.get("event").asText()).isEqualTo("ready");
      assertThat(ready.get("pid").asLong()).isEqualTo(pid);
    }
  }

  /** The STATE ps gives {@code pid}, or null when it does not list it. */
  private static String stateOf(CliResult ps, long pid) {
    for (JsonNode row : ps.stdoutJson()) {
      if (row.get("pid").asLong() == pid) {
        return row.path("state").isNull() ? null : row.path("state").asText();
      }
    }
    return null;
  }
}
