package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Every command family that watches a live process over EventPipe, on .NET 8, 9 and 10: the same
 * TargetApp on each runtime, the same facts asserted (what the app says it did), and on a runtime
 * that cannot give a session exactly as asked (.NET 8 cannot turn stacks off) one line on stderr
 * naming the runtime and what it lacks, never "too old". Each test's runtimes run side by side
 * ({@code @Execution(CONCURRENT)} on the method: the class still runs alone; docs/testing.md).
 */
class RuntimeSessionsTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(90);
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  private static TargetProcess app(Runtime runtime, String... args) {
    return TargetProcess.start(runtime, DotnetApps.TARGET_APP, args);
  }

  private static RunningCli watch(String... args) {
    return Clrscope.start(Map.of(), Clrscope.root(), args);
  }

  private static void awaitStderr(RunningCli cli, String text) {
    cli.awaitStderrLine(l -> l.contains(text), TIMEOUT);
  }

  private static List<JsonNode> jsonLines(CliResult r) throws Exception {
    List<JsonNode> lines = new ArrayList<>();
    for (String l : r.stdoutLines()) {
      lines.add(JSON.readTree(l));
    }
    return lines;
  }

  private static List<JsonNode> kind(List<JsonNode> lines, String kind) {
    return lines.stream().filter(l -> l.path("kind").asText().equals(kind)).toList();
  }

  /**
   * What stderr says of the session on {@code runtime}: on .NET 8 that stacks stay on, with the
   * runtime's version; elsewhere nothing of the kind; nowhere "too old".
   */
  private static void assertSessionNotes(Runtime runtime, CliResult r, String version) {
    assertThat(r.stderr()).doesNotContain("too old");
    String stacksOn =
        ".NET "
            + version
            + " cannot turn event stacks off (CollectTracing3, .NET 9): its events carry their"
            + " stacks";
    if (runtime == Runtime.NET8) {
      assertThat(r.stderr()).as("%s", r).containsOnlyOnce(stacksOn);
    } else {
      assertThat(r.stderr()).as("%s", r).doesNotContain("cannot turn event stacks off");
    }
  }

  @ParameterizedTest
  @Execution(ExecutionMode.CONCURRENT)
  @EnumSource(Runtime.class)
  @RunsCommands({"ps", "info"})
  void psAndInfoNameTheRuntimeVersionTheAppRunsOn(Runtime runtime) throws Exception {
    try (TargetProcess app = app(runtime)) {
      String version = app.ready().runtimeVersion();
      CliResult info =
          Clrscope.run(TIMEOUT, "info", "-p", Long.toString(app.pid()), "--format", "json");
      assertThat(info.exitCode()).as("%s", info).isZero();
      JsonNode i = info.stdoutJson();
      assertThat(i.get("pid").asLong()).isEqualTo(app.pid());
      assertThat(i.get("runtimeVersion").asText()).isEqualTo(version);
      assertThat(i.get("entrypointAssembly").asText()).isEqualTo("TargetApp");
      assertThat(i.get("runtimeIdentifier").asText()).isEqualTo(app.ready().rid());

      CliResult ps = Clrscope.run(TIMEOUT, "ps", "--format", "json");
      assertThat(ps.exitCode()).as("%s", ps).isZero();
      JsonNode row = null;
      for (JsonNode p : ps.stdoutJson()) {
        if (p.get("pid").asLong() == app.pid()) {
          row = p;
        }
      }
      assertThat(row).as("%s", ps).isNotNull();
      assertThat(row.get("runtimeVersion").asText()).isEqualTo(version);
      assertThat(row.get("entrypoint").asText()).isEqualTo("TargetApp");
      // Self-contained, the app is its own executable: ps names it so.
      assertThat(row.get("name").asText()).isEqualTo(runtime.isMachines() ? "dotnet" : "TargetApp");
    }
  }

  @ParameterizedTest
  @Execution(ExecutionMode.CONCURRENT)
  @EnumSource(Runtime.class)
  @RunsCommands({"trace collect", "trace report"})
  void aTracedSpinIsTheTopMethodOfItsThread(Runtime runtime) throws Exception {
    Path file = dir.resolve("spin-" + runtime + ".nettrace");
    JsonNode spin;
    try (TargetProcess app = app(runtime)) {
      spin =
          TraceRecorder.collect(
              app, file, "spin 1000", TIMEOUT, "--profile", "dotnet-sampled-thread-time");
    }
    CliResult report =
        Clrscope.run(
            TIMEOUT,
            "trace",
            "report",
            file.toString(),
            "topN",
            "-N",
            "3",
            "--thread",
            spin.get("tid").asText(),
            "--format",
            "json");
    assertThat(report.exitCode()).as("%s", report).isZero();
    JsonNode thread = report.stdoutJson();
    long samples = thread.get("samples").asLong();
    assertThat(samples).isGreaterThan(50);
    // BurnCpu holds the thread's samples (the runtime's GC poll, called from its loop, may be
    // the innermost frame of some): inclusive, nearly all of them.
    JsonNode burn = null;
    for (JsonNode m : thread.get("methods")) {
      if (m.get("method").asText().equals(spin.get("method").asText())) {
        burn = m;
      }
    }
    assertThat(burn).as("%s", report).isNotNull();
    assertThat(burn.get("inclusive").asLong() * 100).isGreaterThanOrEqualTo(samples * 90);
    assertThat(burn.get("file").asText()).endsWith("/TargetApp/Profiled.cs");
  }

  @ParameterizedTest
  @Execution(ExecutionMode.CONCURRENT)
  @EnumSource(Runtime.class)
  @RunsCommands({"counters"})
  void countersCountTheGen2GcsTheAppRan(Runtime runtime) throws Exception {
    try (TargetProcess app = app(runtime);
        RunningCli cli =
            watch(
                "counters",
                "collect",
                "-p",
                Long.toString(app.pid()),
                "--format",
                "jsonl",
                "--refresh-interval",
                "1")) {
      // The first values came: the session runs.
      cli.awaitLine(l -> l.contains("\"provider\":\"System.Runtime\""), TIMEOUT);
      JsonNode before = app.send("counts");
      JsonNode gc = app.send("gc 3");
      long gen2 = gc.get("gen2").asLong();
      // .NET 8 publishes System.Runtime as EventCounters: gen-2-gc-count, the GCs of each
      // interval; .NET 9 and later as a Meter: dotnet.gc.collections, the process's total.
      String name = runtime == Runtime.NET8 ? "gen-2-gc-count" : "dotnet.gc.collections";
      long[] seen = new long[1];
      await()
          .atMost(TIMEOUT)
          .until(
              () -> {
                long total = 0;
                long last = -1;
                for (String l : cli.stdout().lines().toList()) {
                  JsonNode m = JSON.readTree(l);
                  if (!m.path("name").asText().equals(name)) {
                    continue;
                  }
                  if (runtime == Runtime.NET8) {
                    total += m.path("rate").asLong();
                  } else if (m.path("tags").path("gc.heap.generation").asText().equals("gen2")) {
                    last = m.path("value").asLong();
                  }
                }
                seen[0] = runtime == Runtime.NET8 ? total : last;
                return runtime == Runtime.NET8
                    ? total == gen2 - before.get("gen2").asLong()
                    : last == gen2;
              });
      cli.interrupt();
      CliResult r = cli.await(TIMEOUT);
      assertThat(r.exitCode()).as("%s", r).isZero();
      assertSessionNotes(runtime, r, app.ready().runtimeVersion());
      assertThat(seen[0]).isPositive();
    }
  }

  @ParameterizedTest
  @Execution(ExecutionMode.CONCURRENT)
  @EnumSource(Runtime.class)
  @RunsCommands({"gcstats", "fullgc"})
  void gcstatsRowsAreTheInducedGcsAndFullgcRunsOne(Runtime runtime) throws Exception {
    try (TargetProcess app = app(runtime)) {
      try (RunningCli cli = watch("gcstats", "-p", Long.toString(app.pid()), "--format", "jsonl")) {
        awaitStderr(cli, "Watching the GCs");
        JsonNode before = app.send("counts");
        JsonNode churn = app.send("churn 3 1000");
        for (int i = 0; i < 3; i++) {
          cli.awaitLine(l -> l.contains("\"reason\":\"Induced\""), TIMEOUT);
        }
        cli.interrupt();
        CliResult r = cli.await(TIMEOUT);
        assertThat(r.exitCode()).as("%s", r).isZero();
        assertSessionNotes(runtime, r, app.ready().runtimeVersion());
        List<JsonNode> gcs = kind(jsonLines(r), "gc");
        assertThat(gcs).hasSize((int) (churn.get("gen0").asLong() - before.get("gen0").asLong()));
        List<JsonNode> induced =
            gcs.stream().filter(g -> g.get("reason").asText().equals("Induced")).toList();
        assertThat(induced).hasSize(3);
        assertThat(induced).allSatisfy(g -> assertThat(g.get("generation").asInt()).isEqualTo(2));
        JsonNode last = induced.get(2);
        JsonNode info = churn.get("lastGc");
        assertThat(last.get("gc").asLong()).isEqualTo(info.get("index").asLong());
        assertThat(last.get("heapSizeAfterBytes").asLong())
            .isEqualTo(info.get("heapSizeBytes").asLong());
        assertThat(last.get("promotedBytes").asLong())
            .isEqualTo(info.get("promotedBytes").asLong());
      }

      JsonNode before = app.send("counts");
      CliResult full =
          // A reply may take more than the default 10 s on 2 busy cores with three runtimes at once
          // (seen once, on .NET 9, in a full run beside other engineers' builds).
          Clrscope.run(
              TIMEOUT, "fullgc", "-p", Long.toString(app.pid()), "-t", "30", "--format", "json");
      JsonNode after = app.send("gcinfo");
      assertThat(full.exitCode()).as("%s", full).isZero();
      JsonNode gc = full.stdoutJson();
      assertThat(gc.get("generation").asInt()).isEqualTo(2);
      assertThat(gc.get("reason").asText()).isEqualTo("Induced");
      // The runtime may run a second GC when the session closes (dotnet/runtime#99487): said.
      long second = gc.get("secondGcOnClose").asBoolean() ? 1 : 0;
      assertThat(after.get("gen2").asLong() - before.get("gen2").asLong()).isEqualTo(1 + second);
      assertThat(gc.get("gc").asLong()).isEqualTo(after.get("gen0").asLong() - second);
    }
  }

  @ParameterizedTest
  @Execution(ExecutionMode.CONCURRENT)
  @EnumSource(Runtime.class)
  @RunsCommands({"dump-heap collect", "dump-heap report"})
  void dumpHeapCountsTheHeldWidgetsLiveAndInItsFile(Runtime runtime) throws Exception {
    int held = 23_456;
    Path gcdump = dir.resolve("widgets-" + runtime + ".gcdump");
    try (TargetProcess app = app(runtime)) {
      app.send("hold Widget " + held);
      CliResult live =
          Clrscope.run(
              TIMEOUT,
              "dump-heap",
              "-p",
              Long.toString(app.pid()),
              "--format",
              "json",
              "--type",
              "Widget");
      assertThat(live.exitCode()).as("%s", live).isZero();
      assertThat(live.stderr()).doesNotContain("too old", "cannot send module names");
      JsonNode widget = type(live.stdoutJson(), "TargetApp.Widget");
      assertThat(widget.get("count").asLong()).isEqualTo(held);
      assertThat(widget.get("totalSize").asLong()).isEqualTo(held * 40L);
      assertThat(widget.get("retainedSize").asLong()).isEqualTo(held * 40L);
      if (runtime == Runtime.NET8) {
        // Stacks on, and the classic rundown for the modules' names: said once each.
        assertThat(live.stderr())
            .containsOnlyOnce(
                ".NET "
                    + app.ready().runtimeVersion()
                    + " cannot choose the rundown's keywords (CollectTracing4, .NET 9)");
      }

      CliResult collect =
          Clrscope.run(
              TIMEOUT,
              "dump-heap",
              "collect",
              "-p",
              Long.toString(app.pid()),
              "-o",
              gcdump.toString());
      assertThat(collect.exitCode()).as("%s", collect).isZero();
    }
    CliResult report =
        Clrscope.run(
            TIMEOUT,
            "dump-heap",
            "report",
            gcdump.toString(),
            "--format",
            "json",
            "--type",
            "Widget");
    assertThat(report.exitCode()).as("%s", report).isZero();
    JsonNode widget = type(report.stdoutJson(), "TargetApp.Widget");
    assertThat(widget.get("count").asLong()).isEqualTo(held);
    assertThat(widget.get("totalSize").asLong()).isEqualTo(held * 40L);
    // The module each type came from, as dotnet-gcdump's file names it: the classic rundown
    // brings it on .NET 8 too.
    assertThat(widget.path("module").asText("TargetApp.dll")).endsWith("TargetApp.dll");
  }

  static JsonNode type(JsonNode doc, String name) {
    for (JsonNode t : doc.path("types")) {
      if (t.path("type").asText().equals(name)) {
        return t;
      }
    }
    throw new AssertionError("no type " + name + " in " + doc);
  }

  @ParameterizedTest
  @Execution(ExecutionMode.CONCURRENT)
  @EnumSource(Runtime.class)
  @RunsCommands({"exceptions"})
  void exceptionsRowsAreTheThrownFailures(Runtime runtime) throws Exception {
    int n = 4;
    try (TargetProcess app = app(runtime);
        RunningCli cli =
            watch(
                "exceptions",
                "-p",
                Long.toString(app.pid()),
                "--format",
                "jsonl",
                "--type",
                "Widget")) {
      awaitStderr(cli, "Watching the exceptions");
      app.send("throw 2");
      JsonNode answer = app.send("fail " + n);
      for (int i = 0; i < n; i++) {
        cli.awaitLine(l -> l.contains("\"kind\":\"exception\""), TIMEOUT);
      }
      cli.interrupt();
      CliResult r = cli.await(TIMEOUT);
      assertThat(r.exitCode()).as("%s", r).isZero();
      assertThat(r.stderr()).doesNotContain("too old");
      List<JsonNode> rows = kind(jsonLines(r), "exception");
      assertThat(rows).hasSize(n);
      assertThat(rows)
          .allSatisfy(
              row -> {
                assertThat(row.get("type").asText()).isEqualTo(answer.get("type").asText());
                assertThat(row.get("message").asText()).isEqualTo(answer.get("message").asText());
                assertThat(row.get("throwSite").asText()).isEqualTo(answer.get("method").asText());
                assertThat(row.get("handling").asText()).isEqualTo("caught");
              });
    }
  }

  @ParameterizedTest
  @Execution(ExecutionMode.CONCURRENT)
  @EnumSource(Runtime.class)
  @RunsCommands({"contention"})
  void contentionRowsAreTheContendedLocks(Runtime runtime) throws Exception {
    int n = 2;
    try (TargetProcess app = app(runtime);
        RunningCli cli = watch("contention", "-p", Long.toString(app.pid()), "--format", "jsonl")) {
      awaitStderr(cli, "Watching the locks and waits");
      List<JsonNode> answers = new ArrayList<>();
      answers.add(app.send("contend monitor " + n));
      // System.Threading.Lock came with .NET 9.
      if (runtime != Runtime.NET8) {
        answers.add(app.send("contend lock " + n));
      }
      for (JsonNode answer : answers) {
        for (int i = 0; i < n; i++) {
          cli.awaitLine(l -> l.contains(answer.get("method").asText()), TIMEOUT);
        }
      }
      cli.interrupt();
      CliResult r = cli.await(TIMEOUT);
      assertThat(r.exitCode()).as("%s", r).isZero();
      List<JsonNode> locks = kind(jsonLines(r), "lock");
      for (JsonNode answer : answers) {
        List<JsonNode> rows =
            locks.stream()
                .filter(l -> l.get("method").asText().equals(answer.get("method").asText()))
                .toList();
        assertThat(rows).as("%s in %s", answer, r).hasSize(n);
        assertThat(rows)
            .allSatisfy(
                row ->
                    assertThat(row.get("durationMs").asDouble())
                        .isGreaterThanOrEqualTo(answer.get("holdMs").asDouble()));
      }
    }
  }

  @ParameterizedTest
  @Execution(ExecutionMode.CONCURRENT)
  @EnumSource(Runtime.class)
  @RunsCommands({"http"})
  void httpRowsAreTheRequestsWithTheirStatus(Runtime runtime) throws Exception {
    int n = 4;
    try (TargetProcess app = app(runtime);
        RunningCli cli = watch("http", "-p", Long.toString(app.pid()), "--format", "jsonl")) {
      awaitStderr(cli, "Watching the HTTP requests");
      JsonNode answer = app.send("http " + n);
      for (int i = 0; i < n; i++) {
        cli.awaitLine(l -> l.contains("\"kind\":\"request\""), TIMEOUT);
      }
      cli.interrupt();
      CliResult r = cli.await(TIMEOUT);
      assertThat(r.exitCode()).as("%s", r).isZero();
      assertSessionNotes(runtime, r, app.ready().runtimeVersion());
      List<JsonNode> rows = kind(jsonLines(r), "request");
      assertThat(rows).hasSize(n);
      List<Integer> statuses = new ArrayList<>();
      answer.get("requests").forEach(q -> statuses.add(q.get("status").asInt()));
      assertThat(rows).extracting(q -> q.get("status").asInt()).isEqualTo(statuses);
      assertThat(statuses).containsExactly(200, 200, 404, 200);
      assertThat(rows).allSatisfy(q -> assertThat(q.get("durationMs").asDouble()).isPositive());
    }
  }

  @ParameterizedTest
  @Execution(ExecutionMode.CONCURRENT)
  @EnumSource(Runtime.class)
  @RunsCommands({"alloc"})
  void allocNamesTheAllocatedTypeAndWhereItWasMade(Runtime runtime) throws Exception {
    try (TargetProcess app = app(runtime);
        RunningCli cli = watch("alloc", "-p", Long.toString(app.pid()), "--format", "json")) {
      awaitStderr(cli, "Watching the allocations");
      app.send("allocate 200000 0", TIMEOUT);
      cli.interrupt();
      CliResult r = cli.await(TIMEOUT);
      assertThat(r.exitCode()).as("%s", r).isZero();
      JsonNode doc = r.stdoutJson();
      JsonNode top = doc.path("types").get(0);
      assertThat(top.path("type").asText()).isEqualTo("TargetApp.ProfiledWidget");
      assertThat(top.path("estimatedBytes").asLong()).isBetween(20_000_000L, 45_000_000L);
      JsonNode allocating = doc.path("stacks").get(0).path("frames").get(0);
      assertThat(allocating.path("method").asText()).isEqualTo("TargetApp.Profiled.MakeWidgets");
      assertThat(allocating.path("line").asInt())
          .isEqualTo(SourceMarkers.line(DotnetApps.TARGET_APP, "Profiled.cs", "make-widget"));
    }
  }

  @ParameterizedTest
  @Execution(ExecutionMode.CONCURRENT)
  @EnumSource(Runtime.class)
  @RunsCommands({"startup"})
  void startupOfALaunchedAppReachesMainAndPassesItsExitCodeThrough(Runtime runtime)
      throws Exception {
    List<String> args = new ArrayList<>(List.of("startup", "--format", "jsonl", "--"));
    args.addAll(
        runtime.command(
            DotnetApps.TARGET_APP,
            List.of("--no-stdin", "--exit-after-ms", "300", "--exit-code", "3")));
    CliResult r = Clrscope.run(TIMEOUT, args.toArray(String[]::new));
    assertThat(r.exitCode()).as("%s", r).isEqualTo(3);
    ReadyInfo ready = ReadyInfo.findIn(r.stderr()).orElseThrow();
    assertThat(ready.runtimeVersion()).startsWith(runtime.major() + ".");
    assertSessionNotes(runtime, r, ready.runtimeVersion());
    List<JsonNode> items = jsonLines(r);
    JsonNode summary = items.get(items.size() - 1);
    assertThat(summary.get("mainMethod").asText()).isEqualTo("TargetApp.Program.Main");
    assertThat(
            items.stream()
                .filter(
                    i ->
                        i.path("kind").asText().equals("assembly")
                            && i.path("name").asText().equals("TargetApp"))
                .map(i -> i.get("detail").asText()))
        .containsExactly(ready.assemblyPath());
  }

  /**
   * The first sampling of threads that never were sampled before: .NET 9 says their first sample is
   * of managed code even where they wait in native code (the 5 threads without {@code
   * [Native Frames]}); clrscope runs first here, dotnet-stack after, and both name the same frames.
   */
  @ParameterizedTest
  @Execution(ExecutionMode.CONCURRENT)
  @EnumSource(Runtime.class)
  @RunsCommands({"stack"})
  void stackNamesTheSameFramesAsDotnetStack(Runtime runtime) throws Exception {
    try (TargetProcess app = app(runtime)) {
      JsonNode facts = app.send("facts 10");
      JsonNode triage = app.send("triage-facts");
      CliResult ours =
          Clrscope.run(TIMEOUT, "stack", "-p", Long.toString(app.pid()), "--format", "json");
      assertThat(ours.exitCode()).as("%s", ours).isZero();
      Map<Long, List<String>> stacks = new HashMap<>();
      for (JsonNode t : ours.stdoutJson()) {
        List<String> frames = new ArrayList<>();
        t.get("frames").forEach(f -> frames.add(f.get("frame").asText()));
        stacks.put(t.get("thread").asLong(), frames);
      }
      Map<Long, List<String>> theirs = DotnetStack.report(app.pid());
      assertThat(stacks.keySet()).isEqualTo(theirs.keySet());
      for (long tid : List.of(facts.get("blockedTid").asLong(), triage.get("lockTid").asLong())) {
        assertThat(stacks.get(tid).get(0))
            .as("thread %s: %s", tid, stacks)
            .isEqualTo("[Native Frames]");
      }
      // Every thread waits in native code, the main one reading stdin included: each starts with
      // [Native Frames], and its methods are dotnet-stack's.
      for (Map.Entry<Long, List<String>> t : theirs.entrySet()) {
        assertThat(stacks.get(t.getKey()))
            .as("thread %s", t.getKey())
            .isEqualTo(DotnetStack.methods(t.getValue()));
      }
    }
  }

  private static final Pattern SERVING = Pattern.compile("Serving http://127\\.0\\.0\\.1:(\\d+)/");

  @ParameterizedTest
  @Execution(ExecutionMode.CONCURRENT)
  @EnumSource(Runtime.class)
  @RunsCommands({"serve"})
  void serveExposesTheGen2CountOfTheAppItWatches(Runtime runtime) throws Exception {
    try (TargetProcess app = app(runtime);
        RunningCli serve =
            Clrscope.start(
                Map.of(),
                dir,
                "serve",
                "--listen",
                "127.0.0.1:0",
                "--refresh-interval",
                "1",
                "-p",
                Long.toString(app.pid()))) {
      int port = Integer.parseInt(serve.awaitStderr(SERVING, TIMEOUT));
      HttpClient http = HttpClient.newHttpClient();
      String pid = "pid=\"" + app.pid() + "\"";
      // Counters on every runtime: the EventCounters of .NET 8, the Meter of 9 and 10.
      String series =
          runtime == Runtime.NET8
              ? "gen_2_gc_count_total{" + pid
              : "dotnet_gc_collections_total{" + pid;
      await().atMost(TIMEOUT).until(() -> metrics(http, port).contains(series));
      JsonNode before = app.send("counts");
      JsonNode gc = app.send("gc 2");
      // .NET 8's counter counts the GCs since serve began watching, the Meter the process's.
      long expected =
          runtime == Runtime.NET8
              ? gc.get("gen2").asLong() - before.get("gen2").asLong()
              : gc.get("gen2").asLong();
      Pattern value =
          Pattern.compile(
              "^"
                  + Pattern.quote(series)
                  + "[^}]*"
                  + (runtime == Runtime.NET8 ? "" : "gc_heap_generation=\"gen2\"")
                  + "[^}]*\\} (\\d+)$",
              Pattern.MULTILINE);
      await()
          .atMost(TIMEOUT)
          .until(
              () -> {
                Matcher m = value.matcher(metrics(http, port));
                return m.find() && Long.parseLong(m.group(1)) == expected;
              });
      assertThat(metrics(http, port))
          .contains("runtime_version=\"" + app.ready().runtimeVersion() + "\"");
      serve.signal("TERM");
      CliResult r = serve.await(TIMEOUT);
      assertThat(r.exitCode()).as("%s", r).isZero();
    }
  }

  private static String metrics(HttpClient http, int port) throws Exception {
    return http.send(
            HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + "/metrics"))
                .timeout(Duration.ofSeconds(10))
                .build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }
}
