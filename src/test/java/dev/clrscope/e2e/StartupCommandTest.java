package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code clrscope startup} launching TargetApp, which exits by itself with a code of its own. */
class StartupCommandTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void theTimeLineNamesTheAppsAssemblyAndMainAndPassesItsExitCodeThrough() throws Exception {
    List<String> args = new ArrayList<>(List.of("startup", "--all", "--format", "jsonl", "--"));
    args.addAll(
        DotnetApps.command(
            DotnetApps.TARGET_APP, "--no-stdin", "--exit-after-ms", "300", "--exit-code", "3"));

    long before = System.nanoTime();
    CliResult result = Clrscope.run(TIMEOUT, args.toArray(String[]::new));
    double runMs = (System.nanoTime() - before) / 1e6;

    assertThat(result.exitCode()).as("%s", result).isEqualTo(3);
    // The app's ready line comes on clrscope's stderr; stdout holds clrscope's items alone.
    ReadyInfo ready = ReadyInfo.findIn(result.stderr()).orElse(null);
    List<JsonNode> items = new ArrayList<>();
    for (String l : result.stdoutLines()) {
      assertThat(l).doesNotStartWith("{\"event\"");
      items.add(JSON.readTree(l));
    }
    assertThat(ready).as("%s", result).isNotNull();
    JsonNode summary = items.remove(items.size() - 1);
    assertThat(summary.get("kind").asText()).isEqualTo("summary");
    assertThat(summary.get("stoppedBecause").asText()).isEqualTo("the target exited");

    // The app's own assembly, loaded from where the app says it is, before its Main.
    List<JsonNode> own =
        items.stream()
            .filter(
                i ->
                    i.get("kind").asText().equals("assembly")
                        && i.get("name").asText().equals("TargetApp"))
            .toList();
    assertThat(own).as("%s", result).hasSize(1);
    assertThat(own.get(0).get("detail").asText()).isEqualTo(ready.assemblyPath());
    List<JsonNode> main =
        items.stream().filter(i -> i.get("kind").asText().equals("main")).toList();
    assertThat(main).hasSize(1);
    assertThat(main.get(0).get("name").asText()).isEqualTo("TargetApp.Program.Main");
    assertThat(summary.get("mainMethod").asText()).isEqualTo("TargetApp.Program.Main");
    assertThat(summary.get("mainAtMs").asDouble()).isEqualTo(main.get(0).get("atMs").asDouble());
    assertThat(own.get(0).get("atMs").asDouble()).isLessThan(summary.get("mainAtMs").asDouble());
    // Main itself is compiled, on the thread that reached it.
    assertThat(items)
        .anySatisfy(
            i -> {
              assertThat(i.get("kind").asText()).isEqualTo("jit");
              assertThat(i.get("name").asText()).isEqualTo("TargetApp.Program.Main");
              assertThat(i.get("detail").asText()).isEqualTo("int32  (class System.String[])");
              assertThat(i.get("threadId").asLong())
                  .isEqualTo(main.get(0).get("threadId").asLong());
            });

    // With --all, every item the summary counts is a row.
    Map<String, Integer> rows = new HashMap<>();
    items.forEach(i -> rows.merge(i.get("kind").asText(), 1, Integer::sum));
    for (JsonNode kind : summary.get("byKind")) {
      assertThat(rows.get(kind.get("kind").asText()))
          .as("%s", kind)
          .isEqualTo(kind.get("count").asInt());
    }
    assertThat(rows.get("type")).isGreaterThan(100);
    assertThat(summary.get("byKind").get(0).get("slowest")).hasSize(10);

    // The start before the session, from clrscope's and the runtime's shared monotonic clock: the
    // child's start to its runtime's wait, the wait for clrscope, the resume to Main.
    JsonNode launch = summary.get("launch");
    double startToWait = launch.get("startToWaitMs").asDouble();
    double held = launch.get("heldMs").asDouble();
    double resumeToMain = launch.get("resumeToMainMs").asDouble();
    assertThat(startToWait).isPositive();
    assertThat(held).isPositive();
    assertThat(resumeToMain).isPositive();
    assertThat(launch.get("startToMainMs").asDouble())
        .isCloseTo(startToWait + resumeToMain, within(0.001));
    // The session started while the runtime waited: Main is a little later from the session's
    // start than from the resume, by less than the wait.
    double sessionBeforeResume = summary.get("mainAtMs").asDouble() - resumeToMain;
    assertThat(sessionBeforeResume).isPositive().isLessThan(held);
    // And all of it lies within the run as this test timed it.
    assertThat(startToWait + held + resumeToMain).isLessThan(runMs);
  }

  @Test
  void aRuntimeWaitingOnADiagnosticPortIsWatchedFromItsStart(@TempDir Path dir) throws Exception {
    Path port = dir.resolve("startup.sock");
    try (RunningCli cli =
        Clrscope.start(
            Map.of(),
            Clrscope.root(),
            "startup",
            "--format",
            "jsonl",
            "--timeout",
            "30",
            "--diagnostic-port",
            port.toString())) {
      // The runtime waits at startup for this port: its ready line proves clrscope resumed it.
      try (TargetProcess target =
          TargetProcess.start(
              DotnetApps.TARGET_APP,
              List.of(),
              Map.of("DOTNET_DiagnosticPorts", port.toString()))) {
        JsonNode gcs = target.send("gc 2");
        target.send("exit 5");
        CliResult result = cli.await(TIMEOUT);

        // Not clrscope's child: its exit code is the command's own.
        assertThat(result.exitCode()).as("%s", result).isZero();
        assertThat(result.stderr()).contains("Watching the start of process " + target.pid());
        List<JsonNode> lines = new ArrayList<>();
        for (String l : result.stdoutLines()) {
          lines.add(JSON.readTree(l));
        }
        assertThat(lines)
            .filteredOn(l -> l.get("kind").asText().equals("assembly"))
            .anySatisfy(
                l -> {
                  assertThat(l.get("name").asText()).isEqualTo("TargetApp");
                  assertThat(l.get("detail").asText()).isEqualTo(target.ready().assemblyPath());
                });
        // The app's two induced gen2 GCs, each a row.
        assertThat(lines)
            .filteredOn(l -> l.get("kind").asText().equals("gc"))
            .filteredOn(l -> l.get("detail").asText().equals("Induced"))
            .hasSize(gcs.get("induced").asInt())
            .allSatisfy(l -> assertThat(l.get("name").asText()).isEqualTo("gen 2"));
        JsonNode summary = lines.get(lines.size() - 1);
        assertThat(summary.get("mainMethod").asText()).isEqualTo("TargetApp.Program.Main");
        assertThat(summary.get("stoppedBecause").asText()).isEqualTo("the target exited");
        // Not launched by clrscope: its start before the wait is not known.
        assertThat(summary.get("launch").isNull()).isTrue();
      }
    }
  }

  @Test
  void aRunningProcessIsAUsageError() throws Exception {
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      CliResult result = Clrscope.run(TIMEOUT, "startup", "-p", Long.toString(target.pid()));
      assertThat(result.exitCode()).as("%s", result).isEqualTo(2);
      assertThat(result.stderr())
          .startsWith(
              "clrscope startup: startup watches a process from its start: launch it with --"
                  + " COMMAND, or give --diagnostic-port");
      // The target was left alone.
      assertThat(target.send("ping").get("event").asText()).isEqualTo("pong");
    }
  }
}
