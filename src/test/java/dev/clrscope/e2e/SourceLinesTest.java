package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Source lines of managed frames end to end, against TargetApp (its PDB beside it, as the SDK
 * builds it): the line of a throw live and from a saved trace, a CPU-bound loop's hottest line, a
 * contended lock's and a wait's line; each line read from TargetApp's source by its marker.
 */
class SourceLinesTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(90);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String APP = DotnetApps.TARGET_APP;

  @TempDir Path dir;

  private static final int THROW = SourceMarkers.line(APP, "Monitored.cs", "throw-widget-failure");
  private static final int FAIL_CALLS = SourceMarkers.line(APP, "Monitored.cs", "fail-calls-throw");

  private static void awaitStderr(RunningCli cli, String text) {
    cli.awaitStderrLine(l -> l.contains(text), TIMEOUT);
  }

  private static List<JsonNode> jsonLines(CliResult result) throws IOException {
    List<JsonNode> lines = new ArrayList<>();
    for (String l : result.stdoutLines()) {
      lines.add(JSON.readTree(l));
    }
    return lines;
  }

  /** The throw site of ThrowWidgetFailure and its callers, as a row's members give them. */
  private static void assertWidgetFailureLines(JsonNode row) {
    assertThat(row.path("throwSite").asText()).isEqualTo("TargetApp.Monitored.ThrowWidgetFailure");
    assertThat(row.path("file").asText()).endsWith("/TargetApp/Monitored.cs");
    assertThat(Path.of(row.path("file").asText()))
        .isEqualTo(SourceMarkers.source(APP, "Monitored.cs").toAbsolutePath().normalize());
    assertThat(row.path("line").asInt()).isEqualTo(THROW);
  }

  private static void assertStackLines(JsonNode stack) {
    JsonNode thrower = null;
    JsonNode caller = null;
    for (int i = 0; i < stack.size(); i++) {
      if (stack.get(i).path("method").asText().equals("TargetApp.Monitored.ThrowWidgetFailure")) {
        thrower = stack.get(i);
        caller = stack.get(i + 1);
        break;
      }
    }
    assertThat(thrower).as("%s", stack).isNotNull();
    assertThat(thrower.path("line").asInt()).isEqualTo(THROW);
    // A caller's frame holds a return address: its line is the call's, not the next one.
    assertThat(caller.path("method").asText()).isEqualTo("TargetApp.Monitored.Fail");
    assertThat(caller.path("file").asText()).endsWith("/TargetApp/Monitored.cs");
    assertThat(caller.path("line").asInt()).isEqualTo(FAIL_CALLS);
  }

  @Test
  void anExceptionThrownAtAKnownLineShowsThatLineLive() throws Exception {
    try (TargetProcess target = TargetProcess.start(APP);
        RunningCli cli =
            Clrscope.start(
                Map.of(),
                dir,
                "exceptions",
                "-p",
                Long.toString(target.pid()),
                "--format",
                "jsonl",
                "--stacks")) {
      awaitStderr(cli, "Watching the exceptions");
      target.send("fail 2");
      for (int i = 0; i < 2; i++) {
        cli.awaitLine(l -> l.contains("\"kind\":\"exception\""), TIMEOUT);
      }
      cli.interrupt();
      CliResult result = cli.await(TIMEOUT);
      assertThat(result.exitCode()).as("%s", result).isZero();
      List<JsonNode> lines = jsonLines(result);
      List<JsonNode> rows =
          lines.stream().filter(n -> n.path("kind").asText().equals("exception")).toList();
      assertThat(rows).hasSize(2);
      for (JsonNode row : rows) {
        assertWidgetFailureLines(row);
        assertStackLines(row.path("stack"));
      }
      JsonNode site = lines.get(lines.size() - 1).path("byThrowSite").get(0);
      assertWidgetFailureLines(site);
      assertThat(site.path("count").asInt()).isEqualTo(2);
      // TargetApp's PDB is beside it: nothing to warn about.
      assertThat(result.stderr()).doesNotContain("clrscope exceptions:");
    }
  }

  @Test
  void anExceptionThrownAtAKnownLineShowsThatLineFromASavedTrace() throws Exception {
    Path file = dir.resolve("fail.nettrace");
    try (TargetProcess target = TargetProcess.start(APP)) {
      TraceRecorder.collect(target, file, "fail 3", TIMEOUT, "--clrevents", "exception");
    }
    // The trace's rundown carries the IL-to-native maps and modules of the code at its end.
    CliResult json =
        Clrscope.run(TIMEOUT, "exceptions", file.toString(), "--format", "json", "--stacks");
    assertThat(json.exitCode()).as("%s", json).isZero();
    JsonNode doc = JSON.readTree(json.stdout());
    JsonNode rows = doc.path("records");
    assertThat(rows.size()).as("%s", doc).isEqualTo(3);
    for (JsonNode row : rows) {
      assertWidgetFailureLines(row);
      assertStackLines(row.path("stack"));
    }

    CliResult table = Clrscope.run(TIMEOUT, "exceptions", file.toString());
    assertThat(table.exitCode()).as("%s", table).isZero();
    assertThat(table.stdout())
        .contains("TargetApp.Monitored.ThrowWidgetFailure (Monitored.cs:" + THROW + ")");

    CliResult csv = Clrscope.run(TIMEOUT, "exceptions", file.toString(), "--format", "csv");
    assertThat(csv.stdoutLines().get(0)).startsWith("time,threadId,type,throwSite,file,line,");
    assertThat(csv.stdoutLines().get(1))
        .contains(
            ",TargetApp.Monitored.ThrowWidgetFailure,"
                + SourceMarkers.source(APP, "Monitored.cs").toAbsolutePath().normalize()
                + ","
                + THROW
                + ",");

    // --no-lines: as before lines, no file or line anywhere.
    CliResult none =
        Clrscope.run(TIMEOUT, "exceptions", file.toString(), "--format", "json", "--no-lines");
    JsonNode bare = JSON.readTree(none.stdout()).path("records").get(0);
    assertThat(bare.path("throwSite").asText()).isEqualTo("TargetApp.Monitored.ThrowWidgetFailure");
    assertThat(bare.has("file")).isFalse();
    assertThat(bare.has("line")).isFalse();
    CliResult noneTable = Clrscope.run(TIMEOUT, "exceptions", file.toString(), "--no-lines");
    assertThat(noneTable.stdout()).doesNotContain("(Monitored.cs:");
  }

  @Test
  void aCpuBoundLoopsHottestLineIsInsideTheLoop() throws Exception {
    int loop = SourceMarkers.line(APP, "Profiled.cs", "burn-loop");
    int loopEnd = SourceMarkers.line(APP, "Profiled.cs", "burn-loop-end");
    Path file = dir.resolve("spin.nettrace");
    JsonNode spin;
    try (TargetProcess target = TargetProcess.start(APP)) {
      spin =
          TraceRecorder.collect(
              target, file, "spin 1500", TIMEOUT, "--profile", "dotnet-sampled-thread-time");
    }
    String thread = Long.toString(spin.path("tid").asLong());
    CliResult byLine =
        Clrscope.run(
            TIMEOUT,
            "trace",
            "report",
            file.toString(),
            "topN",
            "--by-line",
            "--thread",
            thread,
            "-N",
            "50",
            "--format",
            "json");
    assertThat(byLine.exitCode()).as("%s", byLine).isZero();
    JsonNode doc = JSON.readTree(byLine.stdout());
    assertThat(doc.path("ranked").asText()).isEqualTo("lines");
    JsonNode hottest = null;
    long burnSamples = 0;
    for (JsonNode row : doc.path("lines")) {
      if (row.path("method").asText().equals("TargetApp.Profiled.BurnCpu")) {
        if (hottest == null) {
          hottest = row;
        }
        assertThat(row.path("file").asText()).endsWith("/TargetApp/Profiled.cs");
        burnSamples += row.path("exclusive").asLong();
      }
    }
    assertThat(hottest).as("%s", doc).isNotNull();
    assertThat(hottest.path("line").asInt()).isGreaterThan(loop).isLessThan(loopEnd);
    // The lines of BurnCpu together hold its samples, as the method row does.
    JsonNode methods =
        JSON.readTree(
            Clrscope.run(
                    TIMEOUT,
                    "trace",
                    "report",
                    file.toString(),
                    "topN",
                    "--thread",
                    thread,
                    "-N",
                    "50",
                    "--format",
                    "json")
                .stdout());
    JsonNode burn = null;
    for (JsonNode m : methods.path("methods")) {
      if (m.path("method").asText().equals("TargetApp.Profiled.BurnCpu")) {
        burn = m;
      }
    }
    assertThat(burn).isNotNull();
    assertThat(burn.path("exclusive").asLong()).isEqualTo(burnSamples);
    assertThat(burn.path("line").asInt()).isEqualTo(hottest.path("line").asInt());

    // The table's LINE column, speedscope's frames and folded stacks name the same line.
    CliResult table =
        Clrscope.run(
            TIMEOUT, "trace", "report", file.toString(), "topN", "--by-line", "--thread", thread);
    assertThat(table.stdout()).contains("Profiled.cs:" + hottest.path("line").asInt());
    Path speedscope = dir.resolve("spin.speedscope.json");
    CliResult convert =
        Clrscope.run(TIMEOUT, "trace", "convert", file.toString(), "-o", speedscope.toString());
    assertThat(convert.exitCode()).as("%s", convert).isZero();
    boolean found = false;
    for (JsonNode f : JSON.readTree(speedscope.toFile()).path("shared").path("frames")) {
      if (f.path("name").asText().equals("TargetApp.Profiled.BurnCpu")) {
        assertThat(f.path("file").asText()).endsWith("/TargetApp/Profiled.cs");
        found |= f.path("line").asInt() == hottest.path("line").asInt();
      }
    }
    assertThat(found).isTrue();
    Path folded = dir.resolve("spin.folded.txt");
    CliResult fold =
        Clrscope.run(
            TIMEOUT,
            "trace",
            "convert",
            file.toString(),
            "--format",
            "folded",
            "-o",
            folded.toString());
    assertThat(fold.exitCode()).as("%s", fold).isZero();
    assertThat(Files.readString(folded))
        .contains("TargetApp.Profiled.BurnCpu (Profiled.cs:" + hottest.path("line").asInt() + ") ");
  }

  @Test
  void aContendedLockAndAWaitShowTheirLines() throws Exception {
    int monitor = SourceMarkers.line(APP, "Monitored.cs", "contended-monitor");
    int wait = SourceMarkers.line(APP, "Monitored.cs", "wait-for-signal");
    try (TargetProcess target = TargetProcess.start(APP);
        RunningCli cli =
            Clrscope.start(
                Map.of(),
                dir,
                "contention",
                "-p",
                Long.toString(target.pid()),
                "--format",
                "jsonl")) {
      awaitStderr(cli, "Watching the locks and waits");
      target.send("contend monitor 2");
      target.send("wait 1");
      await()
          .atMost(TIMEOUT)
          .until(
              () ->
                  cli.stdout().lines().filter(l -> l.contains("WaitForSignal")).count() >= 1
                      && cli.stdout()
                              .lines()
                              .filter(l -> l.contains("EnterContendedMonitor"))
                              .count()
                          >= 2);
      cli.interrupt();
      CliResult result = cli.await(TIMEOUT);
      assertThat(result.exitCode()).as("%s", result).isZero();
      int locks = 0;
      int waits = 0;
      for (JsonNode row : jsonLines(result)) {
        String method = row.path("method").asText();
        if (method.equals("TargetApp.Monitored.EnterContendedMonitor")) {
          assertThat(row.path("file").asText()).endsWith("/TargetApp/Monitored.cs");
          assertThat(row.path("line").asInt()).isEqualTo(monitor);
          locks++;
        } else if (method.equals("TargetApp.Monitored.WaitForSignal")) {
          assertThat(row.path("line").asInt()).isEqualTo(wait);
          waits++;
        }
      }
      assertThat(locks).isEqualTo(2);
      assertThat(waits).isEqualTo(1);
    }
  }
}
