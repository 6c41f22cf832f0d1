package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code clrscope gcstats} and {@code clrscope fullgc} against TargetApp, checked against what the
 * app's runtime reports of itself (GC.CollectionCount, GC.GetGCMemoryInfo,
 * GC.GetTotalAllocatedBytes).
 */
class GcCommandsTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void gcstatsReportsExactlyTheInducedGcsWithTheSizesTheAppReports(@TempDir Path dir)
      throws Exception {
    int rounds = 5;
    Path chart = dir.resolve("gcs.svg");
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP);
        RunningCli cli =
            Clrscope.start(
                Map.of(),
                Clrscope.root(),
                "gcstats",
                "-p",
                Long.toString(target.pid()),
                "--format",
                "jsonl",
                "--chart",
                chart.toString())) {
      awaitStderr(cli, "Watching the GCs");
      JsonNode before = target.send("counts");
      JsonNode churn = target.send("churn " + rounds + " 2000");

      // Rows arrive while the session runs: the heartbeat releases each GC within seconds.
      for (int i = 0; i < rounds; i++) {
        JsonNode row = JSON.readTree(cli.awaitLine(l -> l.contains("\"kind\":\"gc\""), TIMEOUT));
        assertThat(row.get("kind").asText()).isEqualTo("gc");
      }
      cli.interrupt();
      CliResult result = cli.await(TIMEOUT);
      assertThat(result.exitCode()).as("%s", result).isZero();

      List<JsonNode> lines = new ArrayList<>();
      for (String l : result.stdoutLines()) {
        lines.add(JSON.readTree(l));
      }
      List<JsonNode> all = lines.stream().filter(n -> n.get("kind").asText().equals("gc")).toList();
      long totalGcs = churn.get("gen0").asLong() - before.get("gen0").asLong();
      assertThat(all).as("every GC the app ran, and no other").hasSize((int) totalGcs);
      List<JsonNode> induced =
          all.stream()
              .filter(n -> n.get("reason").asText().equals("Induced"))
              .filter(n -> n.get("generation").asInt() == 2)
              .toList();
      assertThat(induced).hasSize(rounds);
      assertThat(induced)
          .allSatisfy(n -> assertThat(n.get("type").asText()).isEqualTo("NonConcurrent"));

      JsonNode last = induced.get(rounds - 1);
      JsonNode info = churn.get("lastGc");
      assertThat(last.get("gc").asLong()).isEqualTo(info.get("index").asLong());
      assertThat(last.get("heapSizeAfterBytes").asLong())
          .isEqualTo(info.get("heapSizeBytes").asLong());
      assertThat(last.get("promotedBytes").asLong()).isEqualTo(info.get("promotedBytes").asLong());
      assertThat(last.get("fragmentationBytes").asLong())
          .isEqualTo(info.get("fragmentedBytes").asLong());
      assertThat(last.get("pinnedObjects").asLong())
          .isEqualTo(info.get("pinnedObjectsCount").asLong());
      String[] gens = {"gen0", "gen1", "gen2", "loh", "poh"};
      long sizeBefore = 0;
      for (int g = 0; g < 5; g++) {
        JsonNode gi = info.get("generations").get(g);
        assertThat(last.get("sizeAfterBytes").get(gens[g]).asLong())
            .as("%s after", gens[g])
            .isEqualTo(gi.get("sizeAfterBytes").asLong());
        sizeBefore += gi.get("sizeBeforeBytes").asLong();
      }
      assertThat(last.get("heapSizeBeforeBytes").asLong()).isEqualTo(sizeBefore);
      // The runtime's own pause (GCMemoryInfo) and SuspendEEBegin..RestartEEEnd measure the same
      // suspension, but the runtime reads its clock before it writes SuspendEEBegin: on a loaded
      // machine a preempted writer makes ours shorter by that much (0.05 ms seen on 2 busy cores).
      double pause = last.get("pauseMs").asDouble();
      double runtimePause = info.get("pauseMs").asDouble();
      assertThat(pause).isBetween(runtimePause - Math.max(0.1, runtimePause / 4), runtimePause + 2);

      JsonNode summary = lines.get(lines.size() - 1);
      assertThat(summary.get("kind").asText()).isEqualTo("summary");
      assertThat(summary.get("gcs").asLong()).isEqualTo(totalGcs);
      assertThat(summary.get("perReason").get("Induced").asLong()).isEqualTo(rounds);
      assertThat(summary.get("stoppedBecause").asText()).isEqualTo("SIGINT");
      assertThat(summary.get("pausedPercent").asDouble()).isGreaterThan(0);
      // Allocation between the first and the last GC: the last rounds - 1 of the app's rounds,
      // plus what else the process allocates meanwhile (the session's own MetricsEventSource
      // heartbeat, the app's stdin and JSON work): two runs here were 0.93 and 0.98 MB over, so 2
      // MiB.
      double perRound = churn.get("allocatedBytes").asDouble() / rounds;
      assertThat(summary.get("allocatedBytes").asDouble())
          .isBetween(0.9 * perRound * (rounds - 1), perRound * (rounds - 1) + 2 * 1024 * 1024);
      assertThat(Files.readString(chart)).contains("<svg", "GCs of process", ">gen0<", ">pause<");
    }
  }

  @Test
  void gcstatsEndsWithItsSummaryWhenTheTargetExits() throws Exception {
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP);
        RunningCli cli =
            Clrscope.start(
                Map.of(), Clrscope.root(), "gcstats", "-p", Long.toString(target.pid()))) {
      awaitStderr(cli, "Watching the GCs");
      target.send("gc 2");
      cli.awaitLine(l -> l.matches("\\S+ +\\d+ +2 +NonConcurrent +Induced .*"), TIMEOUT);
      target.closeStdin();
      target.waitFor(TIMEOUT);

      CliResult result = cli.await(TIMEOUT);
      assertThat(result.exitCode()).as("%s", result).isZero();
      List<String> lines = result.stdoutLines();
      assertThat(lines.get(0)).startsWith("TIME").contains("GC#", "PAUSE_MS", "CONDEMN REASONS");
      assertThat(lines)
          .filteredOn(l -> l.matches("\\S+ +\\d+ +2 +NonConcurrent +Induced .*"))
          .hasSize(2);
      assertThat(lines).anyMatch(l -> l.matches("Watched +.*\\(stopped: the target exited\\)"));
      assertThat(lines).anyMatch(l -> l.matches("Per reason +Induced 2"));
    }
  }

  @Test
  void gcstatsPassesALaunchedAppsExitCodeThroughInCsv(@TempDir Path dir) throws Exception {
    Path chart = dir.resolve("gcs.png");
    List<String> args =
        new ArrayList<>(List.of("gcstats", "--format", "csv", "--chart", chart.toString(), "--"));
    args.addAll(
        DotnetApps.command(
            DotnetApps.TARGET_APP, "--no-stdin", "--exit-after-ms", "1500", "--exit-code", "7"));

    // A small gen0 budget: the app's start alone fills it, so there are GCs to chart.
    CliResult result =
        Clrscope.run(
            TIMEOUT,
            Map.of("DOTNET_GCgen0size", "10000"),
            Clrscope.root(),
            args.toArray(String[]::new));

    assertThat(result.exitCode()).as("%s", result).isEqualTo(7);
    List<String> csv = result.stdoutLines();
    assertThat(csv).hasSizeGreaterThan(1);
    assertThat(csv).noneMatch(l -> l.startsWith("{\"event\""));
    assertThat(csv.get(0)).startsWith("startUtc,gc,generation,type,reason,");
    int columns = csv.get(0).split(",", -1).length;
    assertThat(csv).allSatisfy(l -> assertThat(l.split(",", -1)).hasSize(columns));
    assertThat(result.stderr()).contains("Per reason", "stopped: the target exited");
    byte[] png = Files.readAllBytes(chart);
    assertThat(png).startsWith((byte) 0x89, (byte) 'P', (byte) 'N', (byte) 'G');
  }

  @Test
  void fullgcRaisesTheTargetsGen2CountByTheGcItReports() throws Exception {
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      for (int attempt = 0; attempt < 2; attempt++) {
        JsonNode before = target.send("counts");
        CliResult result =
            Clrscope.run(TIMEOUT, "fullgc", "-p", Long.toString(target.pid()), "--format", "json");
        JsonNode after = target.send("gcinfo");

        assertThat(result.exitCode()).as("%s", result).isZero();
        JsonNode gc = result.stdoutJson();
        assertThat(gc.get("generation").asInt()).isEqualTo(2);
        assertThat(gc.get("type").asText()).isEqualTo("NonConcurrent");
        assertThat(gc.get("reason").asText()).isEqualTo("Induced");
        // .NET 10 on Linux: no second GC when the session closes, and no ClientSequenceNumber.
        assertThat(gc.get("secondGcOnClose").asBoolean()).as("%s", result).isFalse();
        assertThat(gc.get("clientSequenceNumber").asLong()).isZero();
        assertThat(after.get("gen2").asLong() - before.get("gen2").asLong()).isEqualTo(1);
        // The GC's number counts every GC, as GC.CollectionCount(0) does.
        assertThat(gc.get("gc").asLong()).isEqualTo(after.get("gen0").asLong());
        assertThat(gc.get("gc").asLong()).isEqualTo(after.get("lastGc").get("index").asLong());
        assertThat(gc.get("heapSizeAfterBytes").asLong())
            .isEqualTo(after.get("lastGc").get("heapSizeBytes").asLong());
        // The record says so: stderr does not say it again.
        assertThat(result.stderr()).doesNotContain("Second GC");
      }
    }
  }

  @Test
  void onAnEightyColumnTerminalTheTableFitsAndSaysWhatItLeftOut() throws Exception {
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      // script(1) gives the CLI a pseudo-terminal; stty sets its width.
      String command =
          "unset COLUMNS; stty cols 80; '"
              + Clrscope.launcher()
              + "' gcstats -p "
              + target.pid()
              + " --duration 60s";
      Process script =
          new ProcessBuilder("script", "-qfec", command, "/dev/null")
              .redirectErrorStream(true)
              .start();
      ProcessOutput out = new ProcessOutput(script);
      await().atMost(TIMEOUT).until(() -> out.text().contains("PAUSE_MS"));
      assertThat(target.send("gc 2").path("induced").asInt()).isEqualTo(2);
      await()
          .atMost(TIMEOUT)
          .until(() -> out.text().lines().filter(GcCommandsTest::isGcRow).count() == 2);
      script.getOutputStream().write('\n');
      script.getOutputStream().flush();
      assertThat(script.waitFor(60, TimeUnit.SECONDS)).as("%s", out).isTrue();

      List<String> lines = out.text().replace("\r", "").lines().toList();
      assertThat(lines)
          .contains(
              "Showing 7 of 23 columns to fit 80 terminal columns: --columns all shows every one,"
                  + " as do csv, json and redirected output.")
          .anyMatch(l -> l.split(" +").length == 7 && l.startsWith("TIME") && l.endsWith("AFTER"));
      List<String> rows = lines.stream().filter(GcCommandsTest::isGcRow).toList();
      assertThat(rows).hasSize(2).allMatch(l -> l.length() <= 80 && l.contains(" Induced "));
      assertThat(script.exitValue()).as("%s", out).isZero();
    }
  }

  /** A GC's table row: it starts with the GC's local time. */
  private static boolean isGcRow(String line) {
    return line.matches("\\d\\d:\\d\\d:\\d\\d\\.\\d{3} .*");
  }

  @Test
  void fullgcPrintsARecordInTheTable() {
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      CliResult result = Clrscope.run(TIMEOUT, "fullgc", "-p", Long.toString(target.pid()));
      assertThat(result.exitCode()).as("%s", result).isZero();
      assertThat(result.stdoutLines())
          .anyMatch(l -> l.matches("GC number +\\d+"))
          .anyMatch(l -> l.matches("Reason +Induced"))
          .anyMatch(l -> l.matches("Second GC on close +no"));
    }
  }

  private static void awaitStderr(RunningCli cli, String text) throws InterruptedException {
    Instant deadline = Instant.now().plus(TIMEOUT);
    while (!cli.stderr().contains(text)) {
      if (Instant.now().isAfter(deadline) || !cli.process().isAlive()) {
        throw new AssertionError("no '" + text + "' on stderr: " + cli.stderr());
      }
      Thread.sleep(50);
    }
  }
}
