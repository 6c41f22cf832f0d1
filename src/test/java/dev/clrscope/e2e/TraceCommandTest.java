package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clrscope.nettrace.NetTraceFormatException;
import dev.clrscope.nettrace.NetTraceReader;
import dev.clrscope.nettrace.TraceEvent;
import java.io.IOException;
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
 * {@code clrscope trace collect | stats | events | convert} against live TargetApp processes: the
 * traces must hold exactly what the app was told to do.
 */
class TraceCommandTest {
  private static final Duration TIMEOUT = Duration.ofMinutes(2);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String THROWN_MESSAGE = "thrown by TargetApp on request";

  @TempDir Path dir;

  /** Waits until the session's stream has begun arriving in the file: the session is live. */
  private static void awaitTraceStarted(Path file, RunningCli cli) {
    Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
    while (Instant.now().isBefore(deadline)) {
      try {
        if (Files.exists(file) && Files.size(file) > 0) {
          return;
        }
        Thread.sleep(50);
      } catch (IOException e) {
        // Not created yet.
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new AssertionError(e);
      }
    }
    throw new AssertionError("the trace never started: " + cli.stderr());
  }

  private static JsonNode stats(Path file) throws IOException {
    CliResult r = Clrscope.run(TIMEOUT, "trace", "stats", file.toString(), "--format", "json");
    assertThat(r.exitCode()).as("%s", r).isZero();
    assertThat(r.stderr()).as("%s", r).isEmpty();
    return JSON.readTree(r.stdout());
  }

  private static long count(JsonNode stats, String provider, int eventId) {
    long n = 0;
    for (JsonNode row : stats.path("byEvent")) {
      if (row.path("provider").asText().equals(provider)
          && row.path("eventId").asInt() == eventId) {
        n += row.path("count").asLong();
      }
    }
    return n;
  }

  private static List<JsonNode> events(Path file, String... filters) throws IOException {
    List<String> args = new ArrayList<>(List.of("trace", "events", file.toString()));
    args.addAll(List.of(filters));
    CliResult r = Clrscope.run(TIMEOUT, args.toArray(String[]::new));
    assertThat(r.exitCode()).as("%s", r).isZero();
    List<JsonNode> lines = new ArrayList<>();
    for (String line : r.stdoutLines()) {
      lines.add(JSON.readTree(line));
    }
    return lines;
  }

  /** Sends SIGTERM to the CLI's JVM (the launcher execs java, so its pid is the JVM's). */
  private static void terminate(RunningCli cli) throws Exception {
    Process kill = new ProcessBuilder("kill", "-TERM", Long.toString(cli.pid())).start();
    assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(kill.exitValue()).isZero();
  }

  @Test
  void exceptionsAreCountedExactlyWithTheirMessage() throws Exception {
    Path file = dir.resolve("exceptions.nettrace");
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP);
        RunningCli cli =
            Clrscope.start(
                Map.of(),
                dir,
                "trace",
                "collect",
                "-p",
                Long.toString(target.pid()),
                "--providers",
                "Microsoft-Windows-DotNETRuntime:0x8000:4",
                "--duration",
                "90s",
                "-o",
                file.toString())) {
      awaitTraceStarted(file, cli);
      assertThat(target.send("throw 5").path("thrown").asInt()).isEqualTo(5);
      cli.interrupt();
      CliResult result = cli.await(TIMEOUT);

      assertThat(result.exitCode()).as("%s", result).isZero();
      assertThat(result.stdout().strip()).isEqualTo(file.toString());
      assertThat(result.stderr()).contains("Stopping (SIGINT)").contains("Trace complete");
    }
    JsonNode stats = stats(file);
    assertThat(count(stats, "Microsoft-Windows-DotNETRuntime", 80)).isEqualTo(5);
    assertThat(stats.path("truncated").isNull()).isTrue();

    List<JsonNode> thrown = events(file, "--event", "ExceptionThrown");
    assertThat(thrown).hasSize(5);
    for (JsonNode e : thrown) {
      assertThat(e.path("provider").asText()).isEqualTo("Microsoft-Windows-DotNETRuntime");
      assertThat(e.path("name").asText()).isEqualTo("Exception/Start");
      assertThat(e.path("payload").path("ExceptionType").asText())
          .isEqualTo("System.InvalidOperationException");
      assertThat(e.path("payload").path("ExceptionMessage").asText()).isEqualTo(THROWN_MESSAGE);
    }
    // The same events by id and by provider filter.
    assertThat(events(file, "--provider", "microsoft-windows-dotnetruntime", "--event", "80"))
        .hasSize(5);
    // CSV: the same five, one line each under the keys, the payload as quoted JSON text.
    CliResult csv =
        Clrscope.run(
            TIMEOUT, "trace", "events", file.toString(), "--event", "80", "--format", "csv");
    assertThat(csv.exitCode()).as("%s", csv).isZero();
    assertThat(csv.stdoutLines().get(0))
        .isEqualTo(
            "time,relativeMs,provider,eventId,version,name,threadId,processor,activityId,"
                + "relatedActivityId,stack,payloadError,payload");
    assertThat(csv.stdoutLines().subList(1, csv.stdoutLines().size()))
        .hasSize(5)
        .allMatch(l -> l.contains(",Microsoft-Windows-DotNETRuntime,80,"))
        .allMatch(
            l -> l.contains("\"\"ExceptionType\"\":\"\"System.InvalidOperationException\"\""));
  }

  @Test
  void oneCtrlCStopsATraceOfAStoppedTargetWithinTheReplyTimeout() throws Exception {
    Path file = dir.resolve("stopped.nettrace");
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP);
        RunningCli cli =
            Clrscope.start(
                Map.of(),
                dir,
                "trace",
                "collect",
                "-p",
                Long.toString(target.pid()),
                "--timeout",
                "2",
                "-o",
                file.toString())) {
      awaitTraceStarted(file, cli);
      stopProcess(target.pid(), "STOP");
      try {
        long before = System.nanoTime();
        cli.interrupt();
        CliResult result = cli.await(TIMEOUT);
        // StopTracing goes unanswered for --timeout (2 s), then 2 s for the stream to end.
        assertThat(Duration.ofNanos(System.nanoTime() - before)).isLessThan(Duration.ofSeconds(20));

        assertThat(result.exitCode()).as("%s", result).isZero();
        assertThat(result.stderr())
            .contains(
                "Abandoning the rundown (the runtime did not answer StopTracing): the trace keeps"
                    + " every event received so far.");
      } finally {
        stopProcess(target.pid(), "CONT");
      }
    }
    JsonNode stats = stats(file);
    assertThat(stats.path("events").asLong()).isPositive();
  }

  private static void stopProcess(long pid, String signal) throws Exception {
    Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).start();
    assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(kill.exitValue()).isZero();
  }

  /** Exceptions (runtime event 80) in a trace being written, read leniently: it may be cut. */
  private static long exceptionsSoFar(Path file) {
    long n = 0;
    try (NetTraceReader r = NetTraceReader.open(file, true)) {
      TraceEvent e;
      while ((e = r.next()) != null) {
        if (e.eventId() == 80 && e.providerName().equals("Microsoft-Windows-DotNETRuntime")) {
          n++;
        }
      }
    } catch (NetTraceFormatException e) {
      // The header has not arrived whole yet.
    }
    return n;
  }

  @Test
  void aKilledTargetLeavesARepairedTraceWithEveryEventItSent() throws Exception {
    Path file = dir.resolve("killed.nettrace");
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP);
        RunningCli cli =
            Clrscope.start(
                Map.of(),
                dir,
                "trace",
                "collect",
                "-p",
                Long.toString(target.pid()),
                "--providers",
                "Microsoft-Windows-DotNETRuntime:0x8000:4",
                "-o",
                file.toString())) {
      awaitTraceStarted(file, cli);
      assertThat(target.send("throw 3").path("thrown").asInt()).isEqualTo(3);
      // The runtime flushes the session about every 100 ms: wait until all 3 are in the file.
      Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
      while (exceptionsSoFar(file) < 3 && Instant.now().isBefore(deadline)) {
        Thread.sleep(50);
      }
      assertThat(exceptionsSoFar(file)).isEqualTo(3);
      target.process().destroyForcibly();
      assertThat(target.process().waitFor(30, TimeUnit.SECONDS)).isTrue();

      CliResult result = cli.await(TIMEOUT);
      assertThat(result.exitCode()).as("%s", result).isZero();
      assertThat(result.stdout().strip()).isEqualTo(file.toString());
      // No end marker came: the file was closed after its last whole block.
      assertThat(result.stderr())
          .as("%s", result)
          .contains("The target exited or ended the session after")
          .contains(file + " keeps every complete block");
    }
    // The repaired file parses strictly and holds exactly the three exceptions.
    JsonNode stats = stats(file);
    assertThat(stats.path("truncated").isNull()).isTrue();
    assertThat(count(stats, "Microsoft-Windows-DotNETRuntime", 80)).isEqualTo(3);
  }

  @Test
  void aStoppingEventEndsTheTraceByItself() throws Exception {
    Path file = dir.resolve("stop.nettrace");
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP);
        RunningCli cli =
            Clrscope.start(
                Map.of(),
                dir,
                "trace",
                "collect",
                "-p",
                Long.toString(target.pid()),
                "--clrevents",
                "gc",
                "--clreventlevel",
                "informational",
                "--stopping-event-provider-name",
                "Microsoft-Windows-DotNETRuntime",
                // dotnet-trace's spelling: TraceEvent's event name, the manifest's field name, the
                // value by the name TraceEvent gives it (GCReason 1).
                "--stopping-event-event-name",
                "GC/Start",
                "--stopping-event-payload-filter",
                "Reason:Induced",
                "-o",
                file.toString())) {
      awaitTraceStarted(file, cli);
      // The runtime hands a thread's events over when its buffers flush; later GCs (on the same
      // thread, with more events) push the first one out. clrscope must stop by itself.
      Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
      while (cli.process().isAlive() && Instant.now().isBefore(deadline)) {
        target.send("gc 1");
        cli.process().waitFor(500, TimeUnit.MILLISECONDS);
      }
      CliResult result = cli.await(TIMEOUT);

      assertThat(result.exitCode()).as("%s", result).isZero();
      assertThat(result.stderr()).contains("stopping event").contains("seen");
    }
    List<JsonNode> starts = events(file, "--event", "GCStart");
    assertThat(starts).isNotEmpty();
    assertThat(starts.get(0).path("payload").path("Reason").asLong()).isEqualTo(1);
  }

  @Test
  void inducedGcsAreCountedExactlyAndSigtermLeavesAReadableFile() throws Exception {
    Path file = dir.resolve("gc.nettrace");
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP);
        RunningCli cli =
            Clrscope.start(
                Map.of(),
                dir,
                "trace",
                "collect",
                "-p",
                Long.toString(target.pid()),
                "--clrevents",
                "gc",
                "--clreventlevel",
                "informational",
                "-o",
                file.toString())) {
      awaitTraceStarted(file, cli);
      target.send("gc 3");
      terminate(cli);
      CliResult result = cli.await(TIMEOUT);

      assertThat(result.exitCode()).as("%s", result).isZero();
      assertThat(result.stderr()).contains("Stopping (SIGTERM)");
    }
    JsonNode stats = stats(file);
    assertThat(count(stats, "Microsoft-Windows-DotNETRuntime", 1)).isEqualTo(3);
    assertThat(stats.path("droppedEvents").asLong()).isZero();

    List<JsonNode> starts = events(file, "--event", "GCStart");
    assertThat(starts).hasSize(3);
    for (JsonNode e : starts) {
      // GC reason 1 = Induced (GC.Collect).
      assertThat(e.path("payload").path("Reason").asLong()).isEqualTo(1);
    }
  }

  @Test
  void launchedAppIsTracedFromStartupAndItsExitCodePassesThrough() throws Exception {
    Path file = dir.resolve("launch.nettrace");
    List<String> args =
        new ArrayList<>(
            List.of(
                "trace",
                "collect",
                "--clrevents",
                "loader+exception",
                "-o",
                file.toString(),
                "--"));
    args.addAll(
        DotnetApps.command(
            DotnetApps.TARGET_APP, "--no-stdin", "--exit-after-ms", "1500", "--exit-code", "7"));

    CliResult result = Clrscope.run(TIMEOUT, Map.of(), dir, args.toArray(String[]::new));

    assertThat(result.exitCode()).as("%s", result).isEqualTo(7);
    // The app's output is discarded, as dotnet-trace does: stdout is the trace's path alone.
    assertThat(result.stdout().strip()).isEqualTo(file.toString());
    assertThat(stats(file).path("events").asLong()).isPositive();
    // The entry assembly loads at startup, before Main: the session was there first.
    List<JsonNode> loads = events(file, "--event", "AssemblyLoad");
    assertThat(loads)
        .anySatisfy(
            e ->
                assertThat(e.path("payload").path("FullyQualifiedAssemblyName").asText())
                    .startsWith("TargetApp,"));
  }

  @Test
  void aDurationEndsTheLaunchedAppAsDotnetTraceDoes() throws Exception {
    Path file = dir.resolve("duration.nettrace");
    List<String> args =
        new ArrayList<>(
            List.of(
                "trace",
                "collect",
                "--clrevents",
                "gc",
                "--duration",
                "00:00:03",
                "-o",
                file.toString(),
                "--"));
    // Left alone, the app would run for ten minutes.
    args.addAll(
        DotnetApps.command(DotnetApps.TARGET_APP, "--no-stdin", "--exit-after-ms", "600000"));

    CliResult result = Clrscope.run(TIMEOUT, Map.of(), dir, args.toArray(String[]::new));

    assertThat(result.exitCode()).as("%s", result).isZero();
    assertThat(result.stdout().strip()).isEqualTo(file.toString());
    assertThat(result.stderr())
        .contains("Done (duration of 3 s reached): ending the launched app as dotnet-trace does");
    assertThat(stats(file).path("events").asLong()).isPositive();
  }

  @Test
  void defaultNameAndSpeedscopeOfALiveSampledTrace() throws Exception {
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      CliResult result =
          Clrscope.run(
              TIMEOUT,
              Map.of(),
              dir,
              "trace",
              "collect",
              "-p",
              Long.toString(target.pid()),
              "--profile",
              "dotnet-sampled-thread-time",
              "--duration",
              "2s",
              "--format",
              "speedscope");

      assertThat(result.exitCode()).as("%s", result).isZero();
      List<String> outputs = result.stdoutLines();
      assertThat(outputs).hasSize(2);
      Path trace = Path.of(outputs.get(0));
      assertThat(trace.getFileName().toString()).matches("TargetApp_\\d{8}_\\d{6}\\.nettrace");
      assertThat(trace.getParent()).isEqualTo(dir);
      JsonNode speedscope = JSON.readTree(Path.of(outputs.get(1)).toFile());
      assertThat(speedscope.path("profiles").size()).isPositive();
      List<String> frames = speedscope.path("shared").path("frames").findValuesAsText("name");
      // The rundown names the app's own methods: the main thread waits in Program.Main.
      assertThat(frames).anyMatch(f -> f.startsWith("TargetApp.Program.Main"));
    }
  }
}
