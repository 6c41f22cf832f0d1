package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
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

  static Path socketOf(long pid) throws Exception {
    try (var sockets =
        Files.newDirectoryStream(Path.of("/tmp"), "dotnet-diagnostic-" + pid + "-*-socket")) {
      for (Path p : sockets) {
        return p;
      }
    }
    throw new AssertionError("no diagnostic socket for " + pid + " in /tmp");
  }
}
