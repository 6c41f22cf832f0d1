package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code clrscope serve} scraped by a real Prometheus server (Debian's {@code prometheus} package,
 * which {@code .ci/run} installs): CountersApp's observable gauge {@code
 * clrscope.demo.queue.length} (always 42) arrives in Prometheus with the app's pid, and its series
 * goes stale once the app exits.
 */
class ServeCommandTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(90);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** A pid that is no .NET process (this JVM's): serve then watches nothing. */
  private static final String NOT_DOTNET = Long.toString(ProcessHandle.current().pid());

  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private static final Pattern SERVING = Pattern.compile("Serving http://127\\.0\\.0\\.1:(\\d+)/");

  private static TargetProcess countersApp() {
    return TargetProcess.start("CountersApp", List.of("--no-stdin"), Map.of());
  }

  /**
   * serve watching only what {@code extra} selects (-p/-n): other engineers' apps on this machine
   * must not get a metrics session from a test.
   */
  private static RunningCli serve(Path dir, String... extra) {
    assertThat(List.of(extra)).as("a serve test names its own apps").containsAnyOf("-p", "-n");
    List<String> args =
        new ArrayList<>(
            List.of(
                "serve",
                "--listen",
                "127.0.0.1:0",
                "--counters",
                "System.Runtime,Clrscope.Demo",
                "--refresh-interval",
                "1",
                "--discovery-interval",
                "1"));
    args.addAll(List.of(extra));
    return Clrscope.start(Map.of(), dir, args.toArray(new String[0]));
  }

  /** The port serve printed it listens on. */
  private static int port(RunningCli serve) {
    return Integer.parseInt(serve.awaitStderr(SERVING, TIMEOUT));
  }

  private static HttpResponse<String> get(String url, String token) throws Exception {
    HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10));
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
  }

  private static int freePort() throws IOException {
    try (ServerSocket s = new ServerSocket(0)) {
      return s.getLocalPort();
    }
  }

  /** Prometheus's own answer to an instant query: the result vector. */
  private static JsonNode query(int prometheus, String promql) throws Exception {
    HttpResponse<String> r =
        get(
            "http://127.0.0.1:"
                + prometheus
                + "/api/v1/query?query="
                + URLEncoder.encode(promql, StandardCharsets.UTF_8),
            null);
    if (r.statusCode() != 200) {
      return JSON.createArrayNode();
    }
    return JSON.readTree(r.body()).path("data").path("result");
  }

  @Test
  void prometheusScrapesTheAppsGaugeWithItsPidAndDropsItWhenTheAppExits(@TempDir Path dir)
      throws Exception {
    assertThat(Path.of("/usr/bin/prometheus"))
        .as("Prometheus (Debian's prometheus package; .ci/run installs it)")
        .exists();
    TargetProcess app = countersApp();
    try (RunningCli serve = serve(dir, "-p", Long.toString(app.pid()))) {
      int port = port(serve);
      int prometheusPort = freePort();
      Path config = dir.resolve("prometheus.yml");
      Files.writeString(
          config,
          "global:\n"
              + "  scrape_interval: 1s\n"
              + "scrape_configs:\n"
              + "  - job_name: clrscope\n"
              + "    static_configs:\n"
              + "      - targets: ['127.0.0.1:"
              + port
              + "']\n");
      Process prometheus =
          new ProcessBuilder(
                  "/usr/bin/prometheus",
                  "--config.file=" + config,
                  "--storage.tsdb.path=" + dir.resolve("data"),
                  "--web.listen-address=127.0.0.1:" + prometheusPort)
              .redirectErrorStream(true)
              .redirectOutput(dir.resolve("prometheus.log").toFile())
              .start();
      try {
        String series = "clrscope_demo_queue_length{pid=\"" + app.pid() + "\"}";
        // Until Prometheus listens, its port refuses the query: asked again, not failed.
        await()
            .atMost(TIMEOUT)
            .pollInterval(Duration.ofMillis(500))
            .ignoreExceptionsInstanceOf(IOException.class)
            .until(() -> query(prometheusPort, series).size() == 1);
        JsonNode sample = query(prometheusPort, series).get(0);
        assertThat(sample.path("value").get(1).asText()).isEqualTo("42");
        assertThat(sample.path("metric").path("name").asText()).isEqualTo("CountersApp");
        assertThat(sample.path("metric").path("runtime_version").asText()).startsWith("10.");
        assertThat(sample.path("metric").path("provider").asText()).isEqualTo("Clrscope.Demo");
        // A counter's running total, and a histogram as a summary, in Prometheus too.
        await()
            .atMost(TIMEOUT)
            .until(
                () ->
                    query(prometheusPort, "clrscope_demo_requests_total{pid=\"" + app.pid() + "\"}")
                            .size()
                        == 2);
        assertThat(
                query(
                    prometheusPort,
                    "clrscope_demo_latency{pid=\""
                        + app.pid()
                        + "\",quantile=\"0.5\",route=\"/a\"}"))
            .hasSize(1);

        // /processes lists the app.
        JsonNode processes =
            JSON.readTree(get("http://127.0.0.1:" + port + "/processes", null).body());
        assertThat(processes.findValues("pid").stream().map(JsonNode::asLong)).contains(app.pid());

        // The app exits: serve drops it, and Prometheus marks its series stale.
        app.process().destroy();
        app.waitFor(TIMEOUT);
        await()
            .atMost(TIMEOUT)
            .pollInterval(Duration.ofMillis(500))
            .until(() -> query(prometheusPort, series).isEmpty());
        assertThat(get("http://127.0.0.1:" + port + "/metrics", null).body())
            .doesNotContain("pid=\"" + app.pid() + "\"");
      } finally {
        prometheus.destroy();
        prometheus.waitFor();
      }
      serve.signal("TERM");
      CliResult r = serve.await(TIMEOUT);
      assertThat(r.exitCode()).as("%s", r).isZero();
      assertThat(r.stderr()).contains("Stopping (SIGTERM): sessions closed.");
    } finally {
      app.close();
    }
  }

  @Test
  void dashPWatchesOnlyTheProcessesItNamesAndLeavesTheOthersMetricsSessionFree(@TempDir Path dir)
      throws Exception {
    try (TargetProcess mine = countersApp();
        TargetProcess other = countersApp();
        RunningCli serve = serve(dir, "-p", Long.toString(mine.pid()), "--duration", "60s")) {
      int port = port(serve);
      assertThat(serve.stderr()).contains("(only pid " + mine.pid() + ")");
      await()
          .atMost(TIMEOUT)
          .until(
              () ->
                  get("http://127.0.0.1:" + port + "/metrics", null)
                      .body()
                      .contains("clrscope_demo_queue_length{pid=\"" + mine.pid() + "\""));
      JsonNode processes =
          JSON.readTree(get("http://127.0.0.1:" + port + "/processes", null).body());
      assertThat(processes.findValues("pid").stream().map(JsonNode::asLong))
          .containsExactly(mine.pid());
      // The other app's metrics session is free: counters with another refresh interval work.
      CliResult counters =
          Clrscope.run(
              TIMEOUT,
              "counters",
              "collect",
              "-p",
              Long.toString(other.pid()),
              "--counters",
              "Clrscope.Demo[clrscope.demo.queue.length]",
              "--refresh-interval",
              "2",
              "--duration",
              "5s");
      assertThat(counters.exitCode()).as("%s", counters).isZero();
      assertThat(counters.stdout()).contains("clrscope.demo.queue.length");
      serve.interrupt();
      assertThat(serve.await(TIMEOUT).exitCode()).isZero();
    }
  }

  @Test
  void withATokenEveryRequestMustCarryIt(@TempDir Path dir) throws Exception {
    Path tokenFile = dir.resolve("token");
    Files.writeString(tokenFile, "s3cret-token\n");
    // A token file others can read is refused, as ssh refuses such a key.
    Files.setPosixFilePermissions(
        tokenFile, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
    try (RunningCli serve =
        serve(dir, "-p", NOT_DOTNET, "--token-file", tokenFile.toString(), "--duration", "60s")) {
      int port = port(serve);
      String metrics = "http://127.0.0.1:" + port + "/metrics";
      HttpResponse<String> none = get(metrics, null);
      assertThat(none.statusCode()).isEqualTo(401);
      assertThat(none.headers().firstValue("WWW-Authenticate")).contains("Bearer");
      assertThat(JSON.readTree(none.body()).path("error").asText()).contains("bearer token");
      assertThat(get(metrics, "wrong").statusCode()).isEqualTo(403);
      HttpResponse<String> ok = get(metrics, "s3cret-token");
      assertThat(ok.statusCode()).isEqualTo(200);
      assertThat(ok.headers().firstValue("Content-Type"))
          .contains("text/plain; version=0.0.4; charset=utf-8");
      HttpResponse<String> missing = get("http://127.0.0.1:" + port + "/nope", "s3cret-token");
      assertThat(missing.statusCode()).isEqualTo(404);
      assertThat(JSON.readTree(missing.body()).path("error").asText())
          .isEqualTo(
              "no such endpoint: /nope (there are GET /metrics, /processes, /rules and POST"
                  + " /gcdump, /trace, /dump)");
      serve.interrupt();
      assertThat(serve.await(TIMEOUT).exitCode()).isZero();
    }
  }

  @Test
  void aNonLoopbackAddressWithoutATokenIsAUsageError(@TempDir Path dir) {
    CliResult r =
        Clrscope.run(
            TIMEOUT, "serve", "-p", NOT_DOTNET, "--listen", "0.0.0.0:0", "--duration", "5s");
    assertThat(r.exitCode()).as("%s", r).isEqualTo(2);
    assertThat(r.stderr())
        .contains("--listen 0.0.0.0:0 is not a loopback address")
        .contains("give --token-file FILE");
    CliResult port =
        Clrscope.run(TIMEOUT, "serve", "-p", NOT_DOTNET, "--listen", "127.0.0.1:99999");
    assertThat(port.exitCode()).isEqualTo(2);
    assertThat(port.stderr()).contains("the port must be from 0 to 65535");
  }
}
