package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code clrscope serve}'s artifact endpoints and collection rules against real apps: a .gcdump
 * that {@code dump-heap report} reads with TargetApp's 1000 held Widgets, a trace that {@code trace
 * stats} reads with the exceptions the app threw while it ran, a real core file, a rule that fires
 * once within its cool-down on CountersApp's gauge (42), the token, every bad parameter, SIGTERM in
 * the middle of a trace. Every serve here watches only its own app ({@code -p}).
 */
class ServeArtifactsTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(90);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private static final Pattern SERVING = Pattern.compile("Serving http://127\\.0\\.0\\.1:(\\d+)/");
  static final String TOKEN = "artifact-token-7";

  /**
   * serve watching only {@code pid}, refreshing every second, its token file {@code dir/token}
   * (0600, {@link #TOKEN}) written for {@code --token-file token} to find.
   */
  static RunningCli serve(Path dir, long pid, String... extra) throws Exception {
    Path tokenFile = dir.resolve("token");
    if (!Files.exists(tokenFile)) {
      Files.writeString(tokenFile, TOKEN + "\n");
      Files.setPosixFilePermissions(tokenFile, PosixFilePermissions.fromString("rw-------"));
    }
    List<String> args =
        new ArrayList<>(
            List.of(
                "serve",
                "-p",
                Long.toString(pid),
                "--listen",
                "127.0.0.1:0",
                "--refresh-interval",
                "1",
                "--discovery-interval",
                "1"));
    args.addAll(List.of(extra));
    return Clrscope.start(Map.of(), dir, args.toArray(new String[0]));
  }

  private static String base(RunningCli serve) {
    return "http://127.0.0.1:" + serve.awaitStderr(SERVING, TIMEOUT);
  }

  private static HttpRequest.Builder request(String url, String token) {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(TIMEOUT);
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    return b;
  }

  private static HttpResponse<byte[]> post(String url, String token) throws Exception {
    return HTTP.send(
        request(url, token).POST(HttpRequest.BodyPublishers.noBody()).build(),
        HttpResponse.BodyHandlers.ofByteArray());
  }

  private static CompletableFuture<HttpResponse<byte[]>> postLater(String url) {
    return HTTP.sendAsync(
        request(url, TOKEN).POST(HttpRequest.BodyPublishers.noBody()).build(),
        HttpResponse.BodyHandlers.ofByteArray());
  }

  private static void awaitStderr(RunningCli serve, String text) {
    await().atMost(TIMEOUT).until(() -> serve.stderr().contains(text));
  }

  private static String body(HttpResponse<byte[]> r) {
    return new String(r.body(), java.nio.charset.StandardCharsets.UTF_8);
  }

  /** The error of a refused request: one line of JSON, {"error": ...}. */
  private static String error(HttpResponse<byte[]> r) throws Exception {
    String b = body(r);
    assertThat(b).endsWith("\n");
    assertThat(b.strip()).doesNotContain("\n").doesNotContain("\tat ").startsWith("{\"error\":");
    return JSON.readTree(b).path("error").asText();
  }

  private static long exceptionsThrown(Path trace) throws Exception {
    CliResult r = Clrscope.run(TIMEOUT, "trace", "stats", trace.toString(), "--format", "json");
    assertThat(r.exitCode()).as("%s", r).isZero();
    long n = 0;
    for (JsonNode row : JSON.readTree(r.stdout()).path("byEvent")) {
      if (row.path("provider").asText().equals("Microsoft-Windows-DotNETRuntime")
          && row.path("eventId").asInt() == 80) {
        n += row.path("count").asLong();
      }
    }
    return n;
  }

  private static List<Path> files(Path dir) throws Exception {
    try (Stream<Path> s = Files.list(dir)) {
      return s.toList();
    }
  }

  @Test
  void gcdumpAndTraceComeBackAsFilesThatReportAndStatsRead(@TempDir Path dir) throws Exception {
    Path art = dir.resolve("art");
    try (TargetProcess app = TargetProcess.start(DotnetApps.TARGET_APP);
        RunningCli serve = serve(dir, app.pid(), "--token-file", "token", "--artifacts", "art")) {
      assertThat(app.send("hold Widget 1000").get("held").asInt()).isEqualTo(1000);
      String base = base(serve);

      HttpResponse<byte[]> g = post(base + "/gcdump?pid=" + app.pid(), TOKEN);
      assertThat(g.statusCode()).as("%s", body(g)).isEqualTo(200);
      assertThat(g.headers().firstValue("Content-Disposition").orElseThrow())
          .matches("attachment; filename=\"\\d{8}_\\d{6}_" + app.pid() + "\\.gcdump\"");
      Path kept = Path.of(g.headers().firstValue("X-Clrscope-Artifact").orElseThrow());
      assertThat(kept.getParent()).isEqualTo(art);
      assertThat(Files.readAllBytes(kept)).isEqualTo(g.body());
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(kept)))
          .isEqualTo("rw-------");
      assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(art)))
          .isEqualTo("rwx------");
      Path gcdump = dir.resolve("got.gcdump");
      Files.write(gcdump, g.body());
      CliResult report =
          Clrscope.run(
              TIMEOUT,
              "dump-heap",
              "report",
              gcdump.toString(),
              "--format",
              "json",
              "--type",
              "^TargetApp\\.Widget$");
      assertThat(report.exitCode()).as("%s", report).isZero();
      JsonNode widget = report.stdoutJson().path("types").get(0);
      assertThat(widget.path("type").asText()).isEqualTo("TargetApp.Widget");
      assertThat(widget.path("count").asLong()).isEqualTo(1000);
      assertThat(widget.path("totalSize").asLong()).isEqualTo(40_000);

      // A trace of 6 s during which the app throws 7 exceptions.
      CompletableFuture<HttpResponse<byte[]>> t =
          postLater(base + "/trace?pid=" + app.pid() + "&duration=6s&profile=dotnet-common");
      awaitStderr(serve, "trace of process " + app.pid() + ": recording for 6 s");
      app.send("throw 7");
      HttpResponse<byte[]> trace =
          t.get(TIMEOUT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
      assertThat(trace.statusCode()).as("%s", body(trace)).isEqualTo(200);
      assertThat(trace.headers().firstValue("Content-Disposition").orElseThrow())
          .endsWith(".nettrace\"");
      Path file = dir.resolve("got.nettrace");
      Files.write(file, trace.body());
      assertThat(exceptionsThrown(file)).isEqualTo(7);
      // The .gcdump, the trace and the trace's maps sidecar (as trace collect writes it).
      assertThat(files(art))
          .hasSize(3)
          .noneMatch(f -> f.toString().endsWith(".partial"))
          .anyMatch(f -> f.toString().endsWith(".nettrace.maps"));

      serve.signal("TERM");
      CliResult r = serve.await(TIMEOUT);
      assertThat(r.exitCode()).as("%s", r).isZero();
    }
  }

  @Test
  void artifactEndpointsNeedTheTokenAndRefuseBadParametersInOneLine(@TempDir Path dir)
      throws Exception {
    try (TargetProcess app = TargetProcess.start(DotnetApps.TARGET_APP)) {
      long pid = app.pid();
      // No token file: the artifact endpoints are off.
      try (RunningCli open = serve(dir, pid, "--duration", "60s")) {
        HttpResponse<byte[]> off = post(base(open) + "/gcdump?pid=" + pid, null);
        assertThat(off.statusCode()).isEqualTo(403);
        assertThat(error(off)).contains("artifact endpoints are off").contains("--token-file");
        open.interrupt();
        assertThat(open.await(TIMEOUT).exitCode()).isZero();
      }
      try (RunningCli serve = serve(dir, pid, "--token-file", "token", "--duration", "60s")) {
        String base = base(serve);
        for (String path : List.of("/gcdump", "/trace", "/dump")) {
          HttpResponse<byte[]> none = post(base + path + "?pid=" + pid, null);
          assertThat(none.statusCode()).as(path).isEqualTo(401);
          assertThat(error(none)).contains("bearer token");
          HttpResponse<byte[]> wrong = post(base + path + "?pid=" + pid, "not-" + TOKEN);
          assertThat(wrong.statusCode()).as(path).isEqualTo(403);
          assertThat(error(wrong)).isEqualTo("the bearer token is not this server's");
        }
        Map<String, String> bad =
            Map.of(
                "/gcdump?pid=abc",
                "400 pid: a process id is a number from 1 to 2147483647 in digits 0-9, got 'abc'",
                "/gcdump?pid=99999999999999999999",
                "400 pid: a process id is a number from 1 to 2147483647 in digits 0-9, got '99999999999999999999'",
                "/gcdump",
                "400 pid is required; POST /gcdump?pid=PID",
                "/trace?pid=" + pid + "&duration=5x",
                "400 duration takes seconds (30), or 500ms, 30s, 10m, 1h, up to 3600 s; got '5x'",
                "/trace?pid=" + pid + "&duration=99999999",
                "400 duration must be from 1 ms to 3600 s, got '99999999'",
                "/trace?pid=" + pid + "&profile=nope",
                "400 profile: unknown profile 'nope': `clrscope trace list-profiles` lists them",
                "/dump?pid=" + pid + "&type=huge",
                "400 type takes mini, heap (WithHeap), triage or full; got 'huge'",
                "/gcdump?pid=" + pid + "&x=1",
                "400 unknown parameter 'x'; POST /gcdump?pid=PID",
                "/gcdump?pid=" + ProcessHandle.current().pid(),
                "404 no .NET process "
                    + ProcessHandle.current().pid()
                    + " on this host (see /processes)");
        for (Map.Entry<String, String> e : bad.entrySet()) {
          HttpResponse<byte[]> r = post(base + e.getKey(), TOKEN);
          assertThat(r.statusCode() + " " + error(r)).as(e.getKey()).isEqualTo(e.getValue());
        }
        HttpResponse<byte[]> get =
            HTTP.send(
                request(base + "/gcdump?pid=" + pid, TOKEN).GET().build(),
                HttpResponse.BodyHandlers.ofByteArray());
        assertThat(get.statusCode()).isEqualTo(405);
        assertThat(error(get)).isEqualTo("/gcdump answers POST, not GET");
        serve.interrupt();
        assertThat(serve.await(TIMEOUT).exitCode()).isZero();
      }
    }
  }

  @Test
  void dumpAnswersWithThePathOfARealCoreFile(@TempDir Path dir) throws Exception {
    try (TargetProcess app = TargetProcess.start(DotnetApps.TARGET_APP);
        RunningCli serve = serve(dir, app.pid(), "--token-file", "token", "--artifacts", "art")) {
      HttpResponse<byte[]> r = post(base(serve) + "/dump?pid=" + app.pid() + "&type=mini", TOKEN);
      assertThat(r.statusCode()).as("%s", body(r)).isEqualTo(200);
      JsonNode answer = JSON.readTree(r.body());
      Path core = Path.of(answer.path("path").asText());
      try {
        assertThat(core.getParent()).isEqualTo(dir.resolve("art"));
        assertThat(answer.path("pid").asLong()).isEqualTo(app.pid());
        assertThat(answer.path("type").asText()).isEqualTo("mini");
        assertThat(answer.path("bytes").asLong()).isEqualTo(Files.size(core)).isPositive();
        byte[] head = new byte[4];
        try (var in = Files.newInputStream(core)) {
          assertThat(in.read(head)).isEqualTo(4);
        }
        assertThat(head).containsExactly(0x7f, 'E', 'L', 'F');
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(core)))
            .isEqualTo("rw-------");
      } finally {
        Files.deleteIfExists(core);
      }
      serve.signal("TERM");
      assertThat(serve.await(TIMEOUT).exitCode()).isZero();
    }
  }

  @Test
  void aDumpOfAnotherUsersProcessIsWrittenThroughADirectoryOfItsOwnThenTakenBack(@TempDir Path dir)
      throws Exception {
    // serve runs as root (as CI does), the app as nobody: the runtime writes as nobody.
    assertThat(System.getProperty("user.name")).as("this test switches users").isEqualTo("root");
    List<String> command =
        new ArrayList<>(List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"));
    command.addAll(DotnetApps.command(DotnetApps.TARGET_APP));
    try (TargetProcess app =
            TargetProcess.startCommand(
                "TargetApp as nobody", command, Map.of("DOTNET_CLI_HOME", "/tmp", "HOME", "/tmp"));
        RunningCli serve = serve(dir, app.pid(), "--token-file", "token", "--artifacts", "art")) {
      assertThat((Integer) Files.getAttribute(Path.of("/proc/" + app.pid()), "unix:uid"))
          .isEqualTo(65534);
      HttpResponse<byte[]> r = post(base(serve) + "/dump?pid=" + app.pid() + "&type=mini", TOKEN);
      assertThat(r.statusCode()).as("%s", body(r)).isEqualTo(200);
      Path core = Path.of(JSON.readTree(r.body()).path("path").asText());
      try {
        assertThat(core.getParent()).isEqualTo(dir.resolve("art"));
        assertThat((Integer) Files.getAttribute(core, "unix:uid")).isZero();
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(core)))
            .isEqualTo("rw-------");
        assertThat(Files.size(core)).isPositive();
      } finally {
        Files.deleteIfExists(core);
      }
      try (Stream<Path> tmp = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
        assertThat(tmp.map(p -> p.getFileName().toString()))
            .noneMatch(n -> n.startsWith("clrscope-dump-" + app.pid() + "-"));
      }
      serve.signal("TERM");
      assertThat(serve.await(TIMEOUT).exitCode()).isZero();
    }
  }

  /**
   * serve running as neither root nor the app's user (nobody, against an app of root's) refuses
   * each artifact with a 409 that says why and what to do, and nothing is left behind.
   */
  @Test
  void aServeNeitherRootNorTheTargetsUserRefusesEachArtifactSayingWhy(@TempDir Path dir)
      throws Exception {
    assertThat(System.getProperty("user.name")).as("this test switches users").isEqualTo("root");
    Files.setAttribute(dir, "unix:uid", 65534);
    Path tokenFile = dir.resolve("token");
    Files.writeString(tokenFile, TOKEN + "\n");
    Files.setAttribute(tokenFile, "unix:uid", 65534);
    Files.setPosixFilePermissions(tokenFile, PosixFilePermissions.fromString("rw-------"));
    try (TargetProcess app = TargetProcess.start(DotnetApps.TARGET_APP)) {
      List<String> command =
          new ArrayList<>(List.of("setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"));
      command.addAll(
          Clrscope.command(
              "serve",
              "-p",
              Long.toString(app.pid()),
              "--listen",
              "127.0.0.1:0",
              "--token-file",
              "token",
              "--artifacts",
              "art"));
      try (RunningCli serve =
          new RunningCli(Subprocess.start(command, Map.of("HOME", dir.toString()), dir))) {
        String base = base(serve);
        String pid = Long.toString(app.pid());

        HttpResponse<byte[]> dump = post(base + "/dump?pid=" + pid + "&type=mini", TOKEN);
        assertThat(dump.statusCode()).as("%s", body(dump)).isEqualTo(409);
        assertThat(error(dump))
            .isEqualTo(
                "process "
                    + pid
                    + " runs as uid 0 and serve as uid 65534: its runtime writes the dump as its"
                    + " own user and cannot write into serve's 0700 artifact directory; run serve"
                    + " as root");
        for (String what : List.of("gcdump", "trace")) {
          HttpResponse<byte[]> r = post(base + "/" + what + "?pid=" + pid, TOKEN);
          assertThat(r.statusCode()).as("%s", body(r)).isEqualTo(409);
          assertThat(error(r))
              .startsWith(
                  "process " + pid + " refused the " + what + ": permission denied on /tmp/")
              .endsWith("(owned by root): run clrscope as root (for example with sudo)");
        }
        assertThat(files(dir.resolve("art"))).isEmpty();
        serve.signal("TERM");
        assertThat(serve.await(TIMEOUT).exitCode()).isZero();
      }
    }
  }

  @Test
  void aRuleFiresOnceWithinItsCoolDownWhenTheGaugeStaysAboveItsThreshold(@TempDir Path dir)
      throws Exception {
    Path rules = dir.resolve("rules.json");
    Files.writeString(
        rules,
        "{\"rules\": [{\"name\": \"queue-backlog\", \"process\": \"CountersApp\",\n"
            + "  \"provider\": \"Clrscope.Demo\", \"counter\": \"clrscope.demo.queue.length\",\n"
            + "  \"above\": 40, \"for\": \"2s\", \"collect\": \"gcdump\", \"coolDown\": \"10m\",\n"
            + "  \"into\": \""
            + dir.resolve("rule-out")
            + "\"}]}\n");
    try (TargetProcess app = TargetProcess.start("CountersApp", List.of("--no-stdin"), Map.of());
        RunningCli serve =
            serve(dir, app.pid(), "--rules", rules.toString(), "--duration", "90s")) {
      String base = base(serve);
      String fired = "rule queue-backlog fired for process " + app.pid();
      awaitStderr(serve, fired);
      assertThat(serve.stderr())
          .contains(fired + ": clrscope.demo.queue.length above 40 for 2 s (now 42)");
      await()
          .atMost(TIMEOUT)
          .until(() -> firings(base).size() == 1 && firings(base).get(0).has("file"));
      JsonNode firing = firings(base).get(0);
      assertThat(firing.path("pid").asLong()).isEqualTo(app.pid());
      assertThat(firing.path("value").asDouble()).isEqualTo(42.0);
      Path gcdump = Path.of(firing.path("file").asText());
      assertThat(gcdump.getParent()).isEqualTo(dir.resolve("rule-out"));
      assertThat(Files.size(gcdump)).isPositive();
      // The gauge stays at 42, published every second: within the cool-down, no second firing.
      await()
          .during(Duration.ofSeconds(8))
          .atMost(Duration.ofSeconds(20))
          .until(() -> firings(base).size() == 1);
      assertThat(serve.stderr().split(Pattern.quote(fired), -1)).hasSize(2);
      serve.signal("TERM");
      assertThat(serve.await(TIMEOUT).exitCode()).isZero();
    }
  }

  private static List<JsonNode> firings(String base) throws Exception {
    HttpResponse<byte[]> r =
        HTTP.send(
            request(base + "/rules", null).GET().build(), HttpResponse.BodyHandlers.ofByteArray());
    List<JsonNode> out = new ArrayList<>();
    JSON.readTree(r.body()).get(0).path("firings").forEach(out::add);
    return out;
  }

  @Test
  void anInvalidRulesFileIsAUsageErrorNamingTheFileTheFieldAndWhatItTakes(@TempDir Path dir)
      throws Exception {
    Path rules = dir.resolve("rules.json");
    Files.writeString(
        rules,
        "{\"rules\": [{\"counter\": \"cpu-usage\", \"above\": \"high\", \"collect\": \"gcdump\"}]}");
    String notDotnet = Long.toString(ProcessHandle.current().pid());
    CliResult r =
        Clrscope.run(
            TIMEOUT, "serve", "-p", notDotnet, "--rules", rules.toString(), "--duration", "5s");
    assertThat(r.exitCode()).as("%s", r).isEqualTo(2);
    assertThat(r.stderr())
        .contains("--rules " + rules + ": rules[0].above must be a number, got 'high'");
    Files.writeString(
        rules, "{\"rules\": [{\"counter\": \"cpu-usage\", \"above\": 90, \"collect\": \"heap\"}]}");
    CliResult kind =
        Clrscope.run(
            TIMEOUT, "serve", "-p", notDotnet, "--rules", rules.toString(), "--duration", "5s");
    assertThat(kind.exitCode()).isEqualTo(2);
    assertThat(kind.stderr())
        .contains(rules + ": rules[0].collect takes trace, gcdump or dump; got 'heap'");
  }

  @Test
  void anArtifactDirectoryOpenToOthersIsRefusedNotChanged(@TempDir Path dir) throws Exception {
    Path shared = Files.createDirectory(dir.resolve("shared"));
    Files.setPosixFilePermissions(shared, PosixFilePermissions.fromString("rwxr-xr-x"));
    CliResult r =
        Clrscope.run(
            TIMEOUT,
            "serve",
            "-p",
            Long.toString(ProcessHandle.current().pid()),
            "--artifacts",
            shared.toString(),
            "--duration",
            "5s");
    assertThat(r.exitCode()).as("%s", r).isEqualTo(1);
    assertThat(r.stderr())
        .contains(
            "clrscope serve: cannot use the artifact directory "
                + shared
                + ": "
                + shared
                + " is open to others (rwxr-xr-x); artifacts hold the processes' memory: chmod 700"
                + " it, or name a new directory");
    assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(shared)))
        .isEqualTo("rwxr-xr-x");
  }

  @Test
  void sigtermDuringATraceEndsItWholeAndLeavesNoPartialFile(@TempDir Path dir) throws Exception {
    Path art = dir.resolve("art");
    try (TargetProcess app = TargetProcess.start(DotnetApps.TARGET_APP);
        RunningCli serve = serve(dir, app.pid(), "--token-file", "token", "--artifacts", "art")) {
      CompletableFuture<HttpResponse<byte[]>> t =
          postLater(
              base(serve) + "/trace?pid=" + app.pid() + "&duration=60s&profile=dotnet-common");
      awaitStderr(serve, "trace of process " + app.pid() + ": recording");
      app.send("throw 3");
      serve.signal("TERM");
      HttpResponse<byte[]> trace =
          t.get(TIMEOUT.toSeconds(), java.util.concurrent.TimeUnit.SECONDS);
      assertThat(trace.statusCode()).as("%s", body(trace)).isEqualTo(200);
      Path file = dir.resolve("stopped.nettrace");
      Files.write(file, trace.body());
      assertThat(exceptionsThrown(file)).isEqualTo(3);
      CliResult r = serve.await(TIMEOUT);
      assertThat(r.exitCode()).as("%s", r).isZero();
      assertThat(files(art))
          .hasSize(2)
          .noneMatch(f -> f.toString().endsWith(".partial"))
          .anyMatch(f -> f.toString().endsWith(".nettrace.maps"));
    }
  }
}
