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
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code clrscope exceptions} and {@code clrscope contention} against TargetApp's {@code fail N},
 * {@code contend monitor|lock N} and {@code wait N} (src/test/dotnet/TargetApp/Monitored.cs), and
 * on a saved trace of them.
 */
class MonitorCommandsTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The saved trace the monitor module's unit tests read (see ExceptionAssemblerTest). */
  private static final Path SAVED =
      Clrscope.root()
          .resolve(
              "monitor/src/test/resources/dev/clrscope/monitor/contention/"
                  + "net10-fail-contend-wait.nettrace");

  private static void awaitStderr(RunningCli cli, String text) {
    await()
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(50))
        .until(
            () -> {
              if (!cli.process().isAlive()) {
                throw new AssertionError("clrscope ended before '" + text + "': " + cli.stderr());
              }
              return cli.stderr().contains(text);
            });
  }

  private static List<JsonNode> json(CliResult result) throws IOException {
    List<JsonNode> lines = new ArrayList<>();
    for (String l : result.stdoutLines()) {
      lines.add(JSON.readTree(l));
    }
    return lines;
  }

  private static List<JsonNode> kind(List<JsonNode> lines, String kind) {
    return lines.stream().filter(n -> n.get("kind").asText().equals(kind)).toList();
  }

  @Test
  void exceptionsGivesOneRowPerThrowWithItsTypeMethodAndMessage() throws Exception {
    int n = 7;
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP);
        RunningCli cli =
            Clrscope.start(
                Map.of(),
                Clrscope.root(),
                "exceptions",
                "-p",
                Long.toString(target.pid()),
                "--format",
                "jsonl",
                "--stacks",
                "--type",
                "Widget")) {
      awaitStderr(cli, "Watching the exceptions");
      // Not of the type asked for: no row.
      target.send("throw 2");
      JsonNode answer = target.send("fail " + n);
      assertThat(answer.get("thrown").asInt()).isEqualTo(n);
      for (int i = 0; i < n; i++) {
        cli.awaitLine(l -> l.contains("\"kind\":\"exception\""), TIMEOUT);
      }
      cli.interrupt();
      CliResult result = cli.await(TIMEOUT);
      assertThat(result.exitCode()).as("%s", result).isZero();

      List<JsonNode> lines = json(result);
      List<JsonNode> rows = kind(lines, "exception");
      assertThat(rows).hasSize(n);
      long thread = rows.get(0).get("threadId").asLong();
      assertThat(rows)
          .allSatisfy(
              r -> {
                assertThat(r.get("type").asText()).isEqualTo(answer.get("type").asText());
                assertThat(r.get("message").asText()).isEqualTo(answer.get("message").asText());
                assertThat(r.get("throwSite").asText()).isEqualTo(answer.get("method").asText());
                assertThat(r.get("handling").asText()).isEqualTo("caught");
                assertThat(r.get("catchingMethod").asText())
                    .isEqualTo("void [TargetApp] TargetApp.Monitored::Fail(int32)");
                assertThat(r.get("threadId").asLong()).isEqualTo(thread);
                List<String> stack =
                    StreamSupport.stream(r.get("stack").spliterator(), false)
                        .map(f -> f.path("method").asText())
                        .toList();
                assertThat(stack)
                    .containsSubsequence(answer.get("method").asText(), "TargetApp.Monitored.Fail");
              });

      JsonNode summary = lines.get(lines.size() - 1);
      assertThat(summary.get("kind").asText()).isEqualTo("summary");
      assertThat(summary.get("exceptions").asInt()).isEqualTo(n);
      assertThat(summary.get("uncaught").asInt()).isZero();
      assertThat(summary.get("byType").get("TargetApp.WidgetFailure").asInt()).isEqualTo(n);
      assertThat(summary.get("byThrowSite")).hasSize(1);
      assertThat(summary.get("byThrowSite").get(0).get("throwSite").asText())
          .isEqualTo("TargetApp.Monitored.ThrowWidgetFailure");
      assertThat(summary.get("byThrowSite").get(0).get("count").asInt()).isEqualTo(n);
      assertThat(summary.get("perSecond").asDouble())
          .isEqualTo(n / summary.get("observedSeconds").asDouble());
      assertThat(summary.get("stoppedBecause").asText()).isEqualTo("SIGINT");
    }
  }

  /**
   * A process that has run a while throws from a method compiled before clrscope attached (and
   * blocks in one): every row names it, in every format, as the summary does; the methods that had
   * code when the session started come from a short rundown session of their own, read first.
   */
  @ParameterizedTest
  @ValueSource(strings = {"table", "jsonl", "csv"})
  void codeCompiledBeforeAttachingIsNamedInEveryRow(String format) throws Exception {
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      // Compiled now, long before clrscope comes: Fail, ThrowWidgetFailure, the contended enter.
      JsonNode before = target.send("fail 2");
      String site = before.get("method").asText();
      JsonNode contended = target.send("contend monitor 1");
      try (RunningCli cli =
          Clrscope.start(
              Map.of(),
              Clrscope.root(),
              "exceptions",
              "-p",
              Long.toString(target.pid()),
              "--format",
              format)) {
        awaitStderr(cli, "Watching the exceptions");
        target.send("fail 3");
        for (int i = 0; i < 3; i++) {
          cli.awaitLine(l -> l.contains("WidgetFailure"), TIMEOUT);
        }
        cli.interrupt();
        CliResult result = cli.await(TIMEOUT);
        assertThat(result.exitCode()).as("%s", result).isZero();
        // The rows come first, the summary after them.
        List<String> rows =
            result.stdoutLines().stream().filter(l -> l.contains("WidgetFailure")).toList();
        assertThat(rows).as("%s", result).hasSizeGreaterThanOrEqualTo(3);
        for (String row : rows.subList(0, 3)) {
          assertThat(row).as(format).contains(site).doesNotContain("!0x");
        }
        if (format.equals("jsonl")) {
          assertThat(kind(json(result), "exception"))
              .hasSize(3)
              .allSatisfy(r -> assertThat(r.get("throwSite").asText()).isEqualTo(site));
        }
      }
      if (format.equals("jsonl")) {
        try (RunningCli cli =
            Clrscope.start(
                Map.of(),
                Clrscope.root(),
                "contention",
                "-p",
                Long.toString(target.pid()),
                "--format",
                "jsonl")) {
          awaitStderr(cli, "Watching the locks and waits");
          target.send("contend monitor 2");
          cli.awaitLine(l -> l.contains("\"kind\":\"lock\""), TIMEOUT);
          cli.awaitLine(l -> l.contains("\"kind\":\"lock\""), TIMEOUT);
          cli.interrupt();
          CliResult result = cli.await(TIMEOUT);
          assertThat(kind(json(result), "lock"))
              .hasSizeGreaterThanOrEqualTo(2)
              .allSatisfy(
                  r ->
                      assertThat(r.get("method").asText())
                          .isEqualTo(contended.get("method").asText()));
        }
      }
    }
  }

  @Test
  void contentionGivesEveryContendedLockAndWaitWithItsDurationAndMethod() throws Exception {
    int n = 3;
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP);
        RunningCli cli =
            Clrscope.start(
                Map.of(),
                Clrscope.root(),
                "contention",
                "-p",
                Long.toString(target.pid()),
                "--format",
                "jsonl")) {
      awaitStderr(cli, "Watching the locks and waits");
      JsonNode monitor = target.send("contend monitor " + n);
      JsonNode lock = target.send("contend lock " + n);
      JsonNode wait = target.send("wait " + n);
      for (int i = 0; i < n; i++) {
        cli.awaitLine(l -> l.contains("TargetApp.Monitored.WaitForSignal"), TIMEOUT);
      }
      cli.interrupt();
      CliResult result = cli.await(TIMEOUT);
      assertThat(result.exitCode()).as("%s", result).isZero();

      List<JsonNode> lines = json(result);
      for (JsonNode answer : List.of(monitor, lock)) {
        List<JsonNode> rows =
            kind(lines, "lock").stream()
                .filter(r -> r.get("method").asText().equals(answer.get("method").asText()))
                .toList();
        assertThat(rows).as("%s in %s", answer, result).hasSize(n);
        assertThat(rows)
            .allSatisfy(
                r -> {
                  assertThat(r.get("durationMs").asDouble())
                      .isGreaterThanOrEqualTo(answer.get("holdMs").asDouble());
                  assertThat(r.get("source").asText()).isEqualTo("Managed");
                  // The holder's OS thread, not the waiter's.
                  assertThat(r.get("ownerThreadId").asLong())
                      .isPositive()
                      .isNotEqualTo(r.get("threadId").asLong());
                });
        assertThat(rows)
            .extracting(r -> r.get("ownerThreadId").asLong())
            .containsOnly(rows.get(0).get("ownerThreadId").asLong());
      }
      // Only the two commands' locks were contended.
      assertThat(kind(lines, "lock")).hasSize(2 * n);
      List<JsonNode> waits =
          kind(lines, "wait").stream()
              .filter(r -> r.get("method").asText().equals(wait.get("method").asText()))
              .toList();
      assertThat(waits).hasSize(n);
      assertThat(waits)
          .allSatisfy(
              r ->
                  assertThat(r.get("durationMs").asDouble())
                      .isGreaterThanOrEqualTo(wait.get("signalAfterMs").asDouble()));

      JsonNode summary = lines.get(lines.size() - 1);
      assertThat(summary.get("kind").asText()).isEqualTo("summary");
      assertThat(summary.get("byKind").get(0).get("kind").asText()).isEqualTo("lock");
      assertThat(summary.get("byKind").get(0).get("count").asInt()).isEqualTo(2 * n);
      assertThat(summary.get("byKind").get(0).get("p50Ms").asDouble()).isGreaterThanOrEqualTo(30);
      JsonNode waitGroup = null;
      for (JsonNode g : summary.get("byStack")) {
        if (g.get("method").asText().equals("TargetApp.Monitored.WaitForSignal")) {
          waitGroup = g;
        }
      }
      assertThat(waitGroup).isNotNull();
      assertThat(waitGroup.get("count").asInt()).isEqualTo(n);
      assertThat(waitGroup.get("maxMs").asDouble())
          .isEqualTo(
              waits.stream().mapToDouble(r -> r.get("durationMs").asDouble()).max().orElseThrow());
    }
  }

  @Test
  void anExceptionThatKillsALaunchedAppIsUnhandledAndItsExitCodePassesThrough() throws Exception {
    List<String> args = new ArrayList<>(List.of("exceptions", "--format", "jsonl", "--"));
    args.addAll(DotnetApps.command(DotnetApps.TARGET_APP));
    try (RunningCli cli = Clrscope.start(Map.of(), Clrscope.root(), args.toArray(String[]::new))) {
      cli.awaitReady(TIMEOUT);
      cli.sendLine("fail 2");
      cli.awaitStderrLine(l -> l.contains("\"event\":\"fail\""), TIMEOUT);
      cli.sendLine("crash");
      CliResult result = cli.await(TIMEOUT);
      // The runtime aborts on an unhandled exception: SIGABRT, which a shell reports as 128 + 6.
      assertThat(result.exitCode()).as("%s", result).isEqualTo(134);
      assertThat(result.stderr())
          .contains("Unhandled exception. TargetApp.WidgetFailure: unhandled widget failure");

      List<JsonNode> lines = new ArrayList<>();
      JsonNode crash = null;
      // clrscope's rows on stdout, nothing else; the app's own lines on stderr.
      for (String l : result.stdoutLines()) {
        JsonNode node = JSON.readTree(l);
        assertThat(node.has("kind")).as(l).isTrue();
        lines.add(node);
      }
      for (String l : result.stderr().lines().toList()) {
        if (l.startsWith("{\"event\":\"crash\"")) {
          crash = JSON.readTree(l);
        }
      }
      assertThat(crash).as("%s", result).isNotNull();
      List<JsonNode> rows = kind(lines, "exception");
      assertThat(rows)
          .extracting(r -> r.get("handling").asText())
          .containsExactly("caught", "caught", "unhandled");
      JsonNode fatal = rows.get(2);
      assertThat(fatal.get("type").asText()).isEqualTo(crash.get("type").asText());
      assertThat(fatal.get("message").asText()).isEqualTo(crash.get("message").asText());
      assertThat(fatal.get("throwSite").asText()).isEqualTo(crash.get("method").asText());
      assertThat(fatal.get("catchingMethod").isNull()).isTrue();

      JsonNode summary = lines.get(lines.size() - 1);
      assertThat(summary.get("exceptions").asInt()).isEqualTo(3);
      assertThat(summary.get("uncaught").asInt()).isEqualTo(1);
      assertThat(summary.get("unhandled").asInt()).isEqualTo(1);
      assertThat(summary.get("stoppedBecause").asText()).isEqualTo("the target exited");
    }
  }

  @Test
  void aSavedTraceIsReadWithEveryFrameNamed() throws Exception {
    CliResult exceptions = Clrscope.run(TIMEOUT, "exceptions", SAVED.toString(), "--stacks");
    assertThat(exceptions.exitCode()).as("%s", exceptions).isZero();
    List<String> lines = exceptions.stdoutLines();
    assertThat(lines.get(0))
        .startsWith("TIME")
        .contains("THREAD", "TYPE", "THROW SITE", "HANDLING", "MESSAGE");
    assertThat(lines)
        .filteredOn(
            l ->
                l.matches(
                    "\\S+ +\\d+ +TargetApp\\.WidgetFailure +TargetApp\\.Monitored\\.ThrowWidgetFailure"
                        + " +- +caught +widget failure on request"))
        .hasSize(3);
    // The rundown at the end of the file names the dispatcher's precompiled frame too.
    assertThat(lines).filteredOn(l -> l.equals("    at System.Runtime.EH.DispatchEx")).hasSize(3);
    // The summary's table by throw site.
    assertThat(lines)
        .anyMatch(
            l ->
                l.matches(
                    " *3  TargetApp\\.WidgetFailure +TargetApp\\.Monitored\\.ThrowWidgetFailure"));

    CliResult contention =
        Clrscope.run(
            TIMEOUT, "contention", SAVED.toString(), "--format", "csv", "--min-duration", "25ms");
    assertThat(contention.exitCode()).as("%s", contention).isZero();
    List<String> csv = contention.stdoutLines();
    assertThat(csv.get(0))
        .isEqualTo(
            "time,kind,threadId,durationMs,ownerThreadId,source,lockId,objectId,method,file,line");
    // The trace was recorded on another machine: its assemblies are not here, so no lines.
    assertThat(csv.subList(1, csv.size())).allSatisfy(l -> assertThat(l).endsWith(",,"));
    assertThat(csv.subList(1, csv.size()))
        .extracting(l -> l.split(",", -1)[8])
        .containsExactly(
            "TargetApp.Monitored.EnterContendedMonitor",
            "TargetApp.Monitored.EnterContendedMonitor",
            "TargetApp.Monitored.EnterContendedLock",
            "TargetApp.Monitored.EnterContendedLock",
            "TargetApp.Monitored.WaitForSignal",
            "TargetApp.Monitored.WaitForSignal");
    // ContentionStop_V1's DurationNs of the first wait, in milliseconds.
    assertThat(csv.get(1)).contains(",lock,", ",30.197118,");
    assertThat(contention.stderr().lines())
        .anyMatch(l -> l.matches("lock +4 .*"))
        .anyMatch(l -> l.matches("wait +2 .*"));
  }

  @Test
  void mistakesAreUsageErrorsOrOneLineFailures(@TempDir Path dir) throws IOException {
    CliResult regex = Clrscope.run(TIMEOUT, "exceptions", SAVED.toString(), "--type", "(Widget");
    assertThat(regex.exitCode()).as("%s", regex).isEqualTo(2);
    assertThat(regex.stderr())
        .startsWith("clrscope exceptions: --type is not a regular expression: Unclosed group");

    CliResult unit = Clrscope.run(TIMEOUT, "contention", SAVED.toString(), "--min-duration", "30");
    assertThat(unit.exitCode()).as("%s", unit).isEqualTo(2);
    assertThat(unit.stderr()).contains("--min-duration", "'30' has no unit");

    CliResult missing =
        Clrscope.run(TIMEOUT, "contention", dir.resolve("none.nettrace").toString());
    assertThat(missing.exitCode()).as("%s", missing).isEqualTo(1);
    assertThat(missing.stderr().strip())
        .isEqualTo("clrscope contention: no such file: " + dir.resolve("none.nettrace"));

    Path notATrace = Files.writeString(dir.resolve("text.nettrace"), "not a trace at all\n");
    CliResult bad = Clrscope.run(TIMEOUT, "exceptions", notATrace.toString());
    assertThat(bad.exitCode()).as("%s", bad).isEqualTo(1);
    assertThat(bad.stderr())
        .startsWith("clrscope exceptions: " + notATrace + " is not a trace clrscope can read");
    assertThat(bad.stdout()).isEmpty();
  }
}
