package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code clrscope env}: reading and changing a live app's environment. */
class EnvCommandTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  @Test
  void listsAVariableTheTestSetInAllFormats() {
    Map<String, String> env = Map.of("CLRSCOPE_E2E_COLOUR", "teal, with \"quotes\"");
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP, List.of(), env)) {
      String pid = Long.toString(target.pid());

      CliResult json = Clrscope.run(TIMEOUT, "env", "-p", pid, "--format", "json");
      CliResult csv = Clrscope.run(TIMEOUT, "env", "-p", pid, "--format", "csv");
      CliResult table = Clrscope.run(TIMEOUT, "env", "-p", pid);

      assertThat(json.exitCode()).as("%s", json).isZero();
      assertThat(json.stdoutJson().get("CLRSCOPE_E2E_COLOUR").asText())
          .isEqualTo("teal, with \"quotes\"");
      assertThat(csv.stdoutLines())
          .contains("name,value", "CLRSCOPE_E2E_COLOUR,\"teal, with \"\"quotes\"\"\"");
      assertThat(table.stdoutLines())
          .anyMatch(l -> l.matches("CLRSCOPE_E2E_COLOUR +teal, with \"quotes\""));
    }
  }

  @Test
  void setChangesWhatTheAppThenReads() {
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      assertThat(target.send("env CLRSCOPE_E2E_SET").get("value").isNull()).isTrue();

      CliResult result =
          Clrscope.run(
              TIMEOUT,
              "env",
              "-p",
              Long.toString(target.pid()),
              "--set",
              "CLRSCOPE_E2E_SET=changed by clrscope",
              "--set",
              "CLRSCOPE_E2E_OTHER=2");

      assertThat(result.exitCode()).as("%s", result).isZero();
      assertThat(result.stdout()).isEmpty();
      assertThat(target.send("env CLRSCOPE_E2E_SET").get("value").asText())
          .isEqualTo("changed by clrscope");
      assertThat(target.send("env CLRSCOPE_E2E_OTHER").get("value").asText()).isEqualTo("2");
    }
  }

  @Test
  void aLaunchedAppSeesTheVariableFromItsFirstLine() {
    // env --set runs while the runtime waits at startup, so Main already sees the value: proof that
    // the app was held until clrscope had done its work.
    List<String> args =
        new java.util.ArrayList<>(List.of("env", "--set", "CLRSCOPE_E2E_EARLY=before-main", "--"));
    args.addAll(
        DotnetApps.command(
            DotnetApps.TARGET_APP,
            "--no-stdin",
            "--exit-after-ms",
            "200",
            "--exit-code",
            "9",
            "--print-env",
            "CLRSCOPE_E2E_EARLY"));

    CliResult result = Clrscope.run(TIMEOUT, args.toArray(String[]::new));

    assertThat(result.exitCode()).as("%s", result).isEqualTo(9);
    ReadyInfo ready =
        ReadyInfo.findIn(result.stderr()).orElseThrow(() -> new AssertionError(result));
    assertThat(ready.env()).containsEntry("CLRSCOPE_E2E_EARLY", "before-main");
  }

  @Test
  void theLaunchedAppsOwnChildrenDoNotInheritTheSuspendingPort() throws Exception {
    List<String> args = new java.util.ArrayList<>(List.of("info", "--format", "json", "--"));
    args.addAll(DotnetApps.command(DotnetApps.TARGET_APP));
    try (RunningCli cli = Clrscope.start(Map.of(), Clrscope.root(), args.toArray(String[]::new))) {
      cli.awaitReady(TIMEOUT);
      cli.sendLine("spawn");
      JsonNode spawn =
          TargetProcess.JSON.readTree(
              cli.awaitStderrLine(l -> l.contains("\"event\":\"spawn\""), TIMEOUT));
      cli.sendLine("exit 0");
      CliResult result = cli.await(TIMEOUT);

      assertThat(spawn.toString()).contains("\"timedOut\":false");
      assertThat(spawn.get("exitCode").asInt()).isZero();
      assertThat(spawn.get("childEnv").asText("")).isEmpty();
      assertThat(result.exitCode()).as("%s", result).isZero();
    }
  }
}
