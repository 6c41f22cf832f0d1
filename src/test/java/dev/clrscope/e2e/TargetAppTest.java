package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checks the harness and TargetApp against each other, without the CLI: if these fail, every
 * end-to-end test built on them would fail for the wrong reason.
 */
class TargetAppTest {
  private static final Duration EXIT_TIMEOUT = Duration.ofSeconds(30);

  @Test
  void readyLineDescribesTheStartedProcess() {
    List<String> args = List.of("alpha", "--print-env", "CLRSCOPE_E2E_MARKER", "--", "two words");
    try (TargetProcess target =
        TargetProcess.start(
            DotnetApps.TARGET_APP, args, Map.of("CLRSCOPE_E2E_MARKER", "marker=1 2"))) {
      ReadyInfo ready = target.ready();

      assertThat(ready.pid()).isEqualTo(target.process().pid());
      assertThat(ready.entrypoint()).isEqualTo("TargetApp");
      assertThat(ready.args()).isEqualTo(args);
      assertThat(ready.runtimeVersion()).startsWith("10.");
      assertThat(ready.frameworkDescription()).startsWith(".NET 10.");
      // Under the dotnet host: the dll, then the arguments, quoted where they need it.
      assertThat(ready.commandLine())
          .isEqualTo(
              DotnetApps.dll(DotnetApps.TARGET_APP)
                  + " alpha --print-env CLRSCOPE_E2E_MARKER -- \"two words\"");
      assertThat(ready.processPath()).isEqualTo(DotnetApps.dotnetRealPath().toString());
      assertThat(Path.of(ready.assemblyPath()))
          .isEqualTo(DotnetApps.dll(DotnetApps.TARGET_APP).toAbsolutePath().normalize());
      assertThat(ready.os()).isEqualTo(expectedOs());
      assertThat(ready.arch()).isEqualTo(expectedArch());
      assertThat(ready.rid()).endsWith("-" + expectedArch());
      assertThat(ready.env()).containsExactly(Map.entry("CLRSCOPE_E2E_MARKER", "marker=1 2"));
      assertThat(ready.startedUtc()).isNotNull();
    }
  }

  @Test
  void envReadsTheVariableAsTheProcessSeesIt() {
    assertThat(System.getenv("HOME")).as("HOME in the test JVM's environment").isNotNull();
    Map<String, String> env = new HashMap<>();
    env.put("CLRSCOPE_E2E_SET", "a value");
    env.put("HOME", null);
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP, List.of(), env)) {
      JsonNode set = target.send("env CLRSCOPE_E2E_SET");
      JsonNode removed = target.send("env HOME");

      assertThat(set.get("event").asText()).isEqualTo("env");
      assertThat(set.get("name").asText()).isEqualTo("CLRSCOPE_E2E_SET");
      assertThat(set.get("value").asText()).isEqualTo("a value");
      assertThat(removed.get("value").isNull()).as("%s", removed).isTrue();
    }
  }

  @Test
  void gcInducesFullCollections() {
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      JsonNode before = target.send("counts");
      JsonNode after = target.send("gc 3");

      assertThat(after.get("induced").asInt()).isEqualTo(3);
      // Other GCs may happen in between, so only a lower bound is reliable; each forced gen2 GC
      // also counts as a gen1 and a gen0 collection.
      for (String generation : List.of("gen0", "gen1", "gen2")) {
        assertThat(after.get(generation).asInt() - before.get(generation).asInt())
            .as("%s collections during 'gc 3': %s -> %s", generation, before, after)
            .isGreaterThanOrEqualTo(3);
      }
      assertThat(after.get("gen0").asInt()).isGreaterThanOrEqualTo(after.get("gen1").asInt());
      assertThat(after.get("gen1").asInt()).isGreaterThanOrEqualTo(after.get("gen2").asInt());
    }
  }

  @Test
  void holdThrowAndReleaseReportTheirCounts() {
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      JsonNode first = target.send("hold Widget 1000");
      JsonNode second = target.send("hold TargetApp.Widget 10");
      JsonNode thrown = target.send("throw 5");
      JsonNode released = target.send("release");

      assertThat(first.get("type").asText()).isEqualTo("TargetApp.Widget");
      assertThat(first.get("held").asInt()).isEqualTo(1000);
      assertThat(second.get("held").asInt()).isEqualTo(1010);
      assertThat(thrown.get("thrown").asInt()).isEqualTo(5);
      assertThat(thrown.get("type").asText()).isEqualTo("System.InvalidOperationException");
      assertThat(released.get("released").asInt()).isEqualTo(1010);
    }
  }

  @Test
  void spawnedChildSeesTheInheritedDiagnosticPortsVariable(@TempDir Path dir) {
    // nosuspend: a port nobody listens on must not stop the runtime from starting.
    String ports = dir.resolve("nobody-listens.sock") + ",nosuspend";
    Map<String, String> env = Map.of("DOTNET_DiagnosticPorts", ports);
    try (TargetProcess target =
        TargetProcess.start(
            DotnetApps.TARGET_APP, List.of("--print-env", "DOTNET_DiagnosticPorts"), env)) {
      JsonNode spawn = target.send("spawn");

      assertThat(target.ready().env()).containsEntry("DOTNET_DiagnosticPorts", ports);
      assertThat(spawn.get("timedOut").asBoolean()).as("%s", spawn).isFalse();
      assertThat(spawn.get("exitCode").asInt()).isZero();
      assertThat(spawn.get("childEnv").asText()).isEqualTo(ports);
      assertThat(spawn.get("pid").asLong()).isNotEqualTo(target.pid());
    }
  }

  @Test
  void spawnedChildWithoutTheVariableReportsNull() {
    Map<String, String> env = new HashMap<>();
    env.put("DOTNET_DiagnosticPorts", null);
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP, List.of(), env)) {
      JsonNode spawn = target.send("spawn");

      assertThat(spawn.get("childEnv").isNull()).as("%s", spawn).isTrue();
      assertThat(spawn.get("inheritedEnv").isNull()).as("%s", spawn).isTrue();
    }
  }

  @Test
  void exitCommandExitsWithThatCode() {
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      JsonNode answer = target.send("exit 7");

      assertThat(answer.get("event").asText()).isEqualTo("exit");
      assertThat(target.waitFor(EXIT_TIMEOUT)).isEqualTo(7);
    }
  }

  @Test
  void endOfStdinExitsWithZero() {
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      target.closeStdin();

      assertThat(target.waitFor(EXIT_TIMEOUT)).isZero();
    }
  }

  @Test
  void exitAfterMsExitsWithoutStdin() {
    try (TargetProcess target =
        TargetProcess.start(
            DotnetApps.TARGET_APP, "--no-stdin", "--exit-after-ms", "200", "--exit-code", "5")) {
      JsonNode exit = target.nextEvent(EXIT_TIMEOUT);

      assertThat(exit.get("reason").asText()).isEqualTo("exit-after-ms");
      assertThat(target.waitFor(EXIT_TIMEOUT)).isEqualTo(5);
    }
  }

  @Test
  void rejectedCommandFailsWithTheAppsMessage() {
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      assertThatThrownBy(() -> target.send("hold Gadget 1"))
          .isInstanceOf(AssertionError.class)
          .hasMessageContaining("unknown type Gadget");
      // The app stays usable after a rejected command.
      assertThat(target.send("ping").get("event").asText()).isEqualTo("pong");
    }
  }

  @Test
  void appThatExitsBeforeReadyFailsWithItsOutput() {
    assertThatThrownBy(() -> TargetProcess.start(DotnetApps.TARGET_APP, "--no-such-option").close())
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("exited with code 64")
        .hasMessageContaining("unknown option --no-such-option");
  }

  @Test
  void missingAppFailsWithHowToBuildIt() {
    assertThatThrownBy(() -> DotnetApps.dll("NoSuchApp"))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("mvn package");
  }

  private static String expectedOs() {
    String name = System.getProperty("os.name");
    if (name.startsWith("Windows")) {
      return "Windows";
    }
    if (name.startsWith("Mac")) {
      return "macOS";
    }
    return name;
  }

  private static String expectedArch() {
    String arch = System.getProperty("os.arch");
    switch (arch) {
      case "amd64":
      case "x86_64":
        return "x64";
      case "aarch64":
        return "arm64";
      default:
        return arch;
    }
  }
}
