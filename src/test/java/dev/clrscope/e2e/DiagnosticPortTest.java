package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clrscope.ipc.discovery.EndpointLocator;
import dev.clrscope.ipc.transport.IpcEndpoint;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --diagnostic-port} in listen and connect modes, against real runtimes. */
class DiagnosticPortTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  @TempDir Path dir;

  @Test
  void listenModeServesARuntimeThatConnectsAndResumesIt() throws Exception {
    Path port = dir.resolve("port.sock");
    // A socket file left over from an earlier run (bound, then abandoned) must not get in the way.
    try (ServerSocketChannel leftover = ServerSocketChannel.open(StandardProtocolFamily.UNIX)) {
      leftover.bind(UnixDomainSocketAddress.of(port));
    }
    assertThat(port).exists();
    try (RunningCli cli =
        Clrscope.start(
            Map.of(),
            Clrscope.root(),
            "info",
            "--format",
            "json",
            "--timeout",
            "30",
            "--diagnostic-port",
            port.toString())) {
      // The runtime waits at startup for this port (suspend is the default for extra ports),
      // so the app's ready line proves clrscope resumed it.
      try (TargetProcess target =
          TargetProcess.start(
              DotnetApps.TARGET_APP,
              List.of(),
              Map.of("DOTNET_DiagnosticPorts", port.toString()))) {
        CliResult result = cli.await(TIMEOUT);

        assertThat(result.exitCode()).as("%s", result).isZero();
        JsonNode info = result.stdoutJson();
        assertThat(info.get("pid").asLong()).isEqualTo(target.pid());
        assertThat(info.get("entrypointAssembly").asText()).isEqualTo("TargetApp");
        assertThat(info.get("endpoint").asText()).isEqualTo(port.toString());
        assertThat(result.stderr()).contains("Waiting up to 30 s for a .NET runtime to connect");
        assertThat(target.send("ping").get("event").asText()).isEqualTo("pong");
      }
    }
    assertThat(port).doesNotExist();
  }

  @Test
  void theListeningSocketIsOwnerOnlyWhateverTheUmask() throws Exception {
    Path port = dir.resolve("umask.sock");
    Path wrapper = dir.resolve("umask000.sh");
    Files.writeString(wrapper, "#!/bin/sh\numask 000\nexec '" + Clrscope.launcher() + "' \"$@\"\n");
    assertThat(wrapper.toFile().setExecutable(true)).isTrue();
    try (RunningCli cli =
        Clrscope.start(
            wrapper,
            Map.of(),
            Clrscope.root(),
            "info",
            "--format",
            "json",
            "--timeout",
            "30",
            "--diagnostic-port",
            port.toString())) {
      await().atMost(TIMEOUT).until(() -> Files.exists(port));
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(port)))
          .isEqualTo("rw-------");
      try (TargetProcess target =
          TargetProcess.start(
              DotnetApps.TARGET_APP,
              List.of(),
              Map.of("DOTNET_DiagnosticPorts", port.toString()))) {
        CliResult result = cli.await(TIMEOUT);
        assertThat(result.exitCode()).as("%s", result).isZero();
        assertThat(result.stdoutJson().get("pid").asLong()).isEqualTo(target.pid());
      }
    }
    try (var left = Files.list(dir)) {
      assertThat(left).containsExactlyInAnyOrder(wrapper);
    }
  }

  @Test
  void anotherUsersLiveRuntimeSocketIsNeverTakenForStale() throws Exception {
    // A shared, non-sticky directory: anyone may delete anyone's files in it. The runtime (run by
    // the test's user, root) puts its socket there; clrscope runs as nobody.
    assertThat(System.getProperty("user.name"))
        .as("this test switches users, so it runs as root")
        .isEqualTo("root");
    Path shared =
        Files.createTempDirectory(
            Path.of("/tmp"),
            "clrscope-shared-",
            PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxrwxrwx")));
    Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxrwxrwx"));
    try (TargetProcess target =
        TargetProcess.start(
            DotnetApps.TARGET_APP, List.of(), Map.of("TMPDIR", shared.toString()))) {
      Path socket =
          await()
              .atMost(TIMEOUT)
              .until(
                  () -> {
                    try (var entries =
                        Files.newDirectoryStream(
                            shared, "dotnet-diagnostic-" + target.pid() + "-*-socket")) {
                      for (Path p : entries) {
                        return p;
                      }
                    }
                    return null;
                  },
                  p -> p != null);
      Process cli =
          new ProcessBuilder(
                  "setpriv",
                  "--reuid=65534",
                  "--regid=65534",
                  "--clear-groups",
                  Clrscope.launcher().toString(),
                  "info",
                  "--timeout",
                  "2",
                  "--diagnostic-port",
                  socket.toString())
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      String err = new String(cli.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(cli.waitFor(60, TimeUnit.SECONDS)).isTrue();

      assertThat(cli.exitValue()).as(err).isEqualTo(1);
      assertThat(err.strip())
          .isEqualTo(
              "clrscope info: "
                  + socket
                  + " is a socket of root that clrscope cannot probe (Permission denied): it may"
                  + " be in use; choose another --diagnostic-port path");
      assertThat(socket).exists();
      CliResult info =
          Clrscope.run(TIMEOUT, "info", "--format", "json", "-p", Long.toString(target.pid()));
      assertThat(info.exitCode()).as("%s", info).isZero();
      assertThat(info.stdoutJson().get("endpoint").asText()).isEqualTo(socket.toString());
    } finally {
      try (var left = Files.list(shared)) {
        for (Path p : left.toList()) {
          Files.deleteIfExists(p);
        }
      }
      Files.deleteIfExists(shared);
    }
  }

  @Test
  void connectModeReachesARuntimesSocketByAnotherPathEvenAPathOverTheSocketLimit()
      throws Exception {
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      Path socket = socketOf(target.pid());
      // A directory deep enough that the link's path exceeds sun_path's 107 bytes, as a socket
      // seen through /proc/PID/root/... of a container can.
      Path deep = dir.resolve("a".repeat(60)).resolve("b".repeat(60));
      Files.createDirectories(deep);
      Path link = Files.createSymbolicLink(deep.resolve("runtime.sock"), socket);
      assertThat(link.toString().length()).isGreaterThan(107);

      CliResult result =
          Clrscope.run(
              TIMEOUT, "env", "--diagnostic-port", link + ",connect", "--set", "VIA_LINK=yes");

      assertThat(result.exitCode()).as("%s", result).isZero();
      assertThat(target.send("env VIA_LINK").get("value").asText()).isEqualTo("yes");
    }
  }

  @Test
  void aListenPathOverTheSocketLimitIsRefusedWithTheLimitNamed() {
    Path tooLong = dir.resolve("c".repeat(120) + ".sock");

    CliResult result = Clrscope.run(TIMEOUT, "info", "--diagnostic-port", tooLong.toString());

    assertThat(result.exitCode()).as("%s", result).isEqualTo(1);
    assertThat(result.stderr().lines()).hasSize(1);
    assertThat(result.stderr())
        .startsWith("clrscope info: the diagnostic port path " + tooLong)
        .contains("Unix socket paths are limited to 107 bytes: choose a shorter path");
  }

  /**
   * The socket the runtime listens on. Not the first {@code dotnet-diagnostic-PID-*-socket} in
   * /tmp: with pids reused (32,768 of them here) and killed runtimes' sockets left behind, that may
   * be a dead process's; the locator picks the one bound now, as every command does.
   */
  static Path socketOf(long pid) {
    IpcEndpoint endpoint = new EndpointLocator().locate(pid).endpoint();
    assertThat(endpoint).isInstanceOf(IpcEndpoint.UnixSocket.class);
    return ((IpcEndpoint.UnixSocket) endpoint).path();
  }
}
