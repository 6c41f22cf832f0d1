package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code clrscope http} against TargetApp's {@code http N} (HttpClient requests to an HttpListener
 * of its own: N - 2 answered 200, one 404, one 302 redirect) and {@code http-fail} (a request to a
 * port nobody listens on); src/test/dotnet/TargetApp/HttpTraffic.cs.
 */
class HttpCommandTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(60);
  private static final ObjectMapper JSON = new ObjectMapper();

  private static List<JsonNode> json(CliResult result) throws IOException {
    List<JsonNode> lines = new ArrayList<>();
    for (String l : result.stdoutLines()) {
      // A launched app's own lines come on stderr, never among clrscope's data.
      assertThat(l).doesNotStartWith("{\"event\"");
      lines.add(JSON.readTree(l));
    }
    return lines;
  }

  /** The URL as the runtime gives it by default: its query string redacted to {@code ?*}. */
  private static String redacted(String url) {
    int q = url.indexOf('?');
    return q < 0 ? url : url.substring(0, q) + "?*";
  }

  /** {@code http -p PID --format jsonl}, once it watches. */
  private static RunningCli watching(TargetProcess target) {
    RunningCli cli =
        Clrscope.start(
            Map.of(),
            Clrscope.root(),
            "http",
            "-p",
            Long.toString(target.pid()),
            "--format",
            "jsonl");
    try {
      await()
          .atMost(TIMEOUT)
          .until(
              () -> {
                assertThat(cli.process().isAlive()).as("%s", cli.stderr()).isTrue();
                return cli.stderr().contains("Watching the HTTP requests");
              });
    } catch (RuntimeException | AssertionError e) {
      cli.close();
      throw e;
    }
    return cli;
  }

  @Test
  void everyRequestWithItsStatusPhasesRedirectAndFailure() throws Exception {
    int n = 6;
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP);
        RunningCli cli = watching(target)) {
      JsonNode answer = target.send("http " + n);
      JsonNode failing = target.send("http-fail");
      for (int i = 0; i < n + 1; i++) {
        cli.awaitLine(l -> l.contains("\"kind\":\"request\""), TIMEOUT);
      }
      cli.interrupt();
      CliResult result = cli.await(TIMEOUT);
      assertThat(result.exitCode()).as("%s", result).isZero();
      // The secret in the query strings never shows.
      assertThat(result.stdout()).doesNotContain("s3cret");

      List<JsonNode> lines = json(result);
      List<JsonNode> rows =
          lines.stream().filter(l -> l.get("kind").asText().equals("request")).toList();
      assertThat(rows).hasSize(n + 1);
      JsonNode asked = answer.get("requests");
      String host = answer.get("root").asText().replaceAll("^http://|/$", "");
      for (int i = 0; i < n; i++) {
        JsonNode row = rows.get(i);
        assertThat(row.get("url").asText()).isEqualTo(redacted(asked.get(i).get("url").asText()));
        assertThat(row.get("status").asInt()).isEqualTo(asked.get(i).get("status").asInt());
        assertThat(row.get("host").asText()).isEqualTo(host);
        assertThat(row.get("version").asText()).isEqualTo("1.1");
        assertThat(row.get("failure").isNull()).isTrue();
        assertThat(row.get("durationMs").asDouble()).isPositive();
        assertThat(row.get("responseHeadersMs").asDouble()).isPositive();
      }
      assertThat(rows.subList(0, n))
          .extracting(r -> r.get("status").asInt())
          .containsExactly(200, 200, 200, 200, 404, 200);
      // The first request waited for the pool to open a connection: it resolved localhost and
      // connected, both while it waited in the queue; every phase lies within the request. (A
      // connect whose resolution stopped on another thread names the stopped resolution as its
      // related activity: it is tied all the same, see HttpAssemblerTest.)
      JsonNode first = rows.get(0);
      for (String phase :
          List.of("dnsMs", "connectMs", "queueMs", "requestMs", "responseHeadersMs")) {
        assertThat(first.get(phase).isNumber()).as("%s in %s", phase, first).isTrue();
        assertThat(first.get(phase).asDouble())
            .as("%s in %s", phase, first)
            .isPositive()
            .isLessThan(first.get("durationMs").asDouble());
      }
      assertThat(first.get("dnsMs").asDouble() + first.get("connectMs").asDouble())
          .as("%s", first)
          .isLessThanOrEqualTo(first.get("queueMs").asDouble());
      // The later ones reused the connection: no resolution, no connect, no wait.
      assertThat(rows.subList(1, n))
          .allSatisfy(
              r -> {
                assertThat(r.get("dnsMs").isNull()).as("%s", r).isTrue();
                assertThat(r.get("connectMs").isNull()).as("%s", r).isTrue();
              });
      assertThat(rows.subList(0, n - 1)).allSatisfy(r -> assertThat(r.get("redirects")).isEmpty());
      JsonNode redirects = rows.get(n - 1).get("redirects");
      assertThat(redirects).hasSize(1);
      assertThat(redirects.get(0).get("status").asInt()).isEqualTo(302);
      assertThat(redirects.get(0).get("from").asText())
          .isEqualTo(answer.get("redirectFrom").asText());
      assertThat(redirects.get(0).get("to").asText())
          .isEqualTo(redacted(answer.get("redirectTo").asText()));

      JsonNode failed = rows.get(n);
      assertThat(failed.get("url").asText()).isEqualTo(failing.get("url").asText());
      assertThat(failed.get("status").isNull()).isTrue();
      assertThat(failed.get("failure").asText()).isEqualTo(failing.get("message").asText());
      // An IP address: nothing resolved; the refused connect timed.
      assertThat(failed.get("dnsMs").isNull()).as("%s", failed).isTrue();
      assertThat(failed.get("connectMs").isNumber()).as("%s", failed).isTrue();
      assertThat(failed.get("connectMs").asDouble()).isPositive();

      JsonNode summary = lines.get(lines.size() - 1);
      assertThat(summary.get("kind").asText()).isEqualTo("summary");
      assertThat(summary.get("requests").asInt()).isEqualTo(n + 1);
      assertThat(summary.get("failed").asInt()).isEqualTo(1);
      assertThat(summary.get("redirects").asInt()).isEqualTo(1);
      String failedHost = failing.get("url").asText().replaceAll("^http://|/closed$", "");
      List<String> groups = new ArrayList<>();
      summary
          .get("byPath")
          .forEach(
              g ->
                  groups.add(
                      g.get("host").asText()
                          + " "
                          + g.get("path").asText()
                          + " "
                          + g.get("status").asText()
                          + " "
                          + g.get("count").asInt()));
      assertThat(groups)
          .containsExactly(
              failedHost + " /closed failed 1",
              host + " /missing 404 1",
              host + " /ok 200 " + (n - 2),
              host + " /redirect 200 1");
      assertThat(summary.get("stoppedBecause").asText()).isEqualTo("SIGINT");
    }
  }

  /**
   * A slow server: TargetApp's listener waits 800 ms before it answers. The wait is the server's
   * share and the time to the first byte; the phases add up to the duration; the summary counts the
   * requests per path with their ids folded.
   */
  @Test
  void aSlowServersShareAndTheTimeToFirstByteAddUpAndPathsFoldTheirIds() throws Exception {
    int n = 3;
    int waitMs = 800;
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP);
        RunningCli cli = watching(target)) {
      JsonNode answer = target.send("http-slow " + n + " " + waitMs);
      for (int i = 0; i < n + 1; i++) {
        cli.awaitLine(l -> l.contains("\"kind\":\"request\""), TIMEOUT);
      }
      cli.interrupt();
      CliResult result = cli.await(TIMEOUT);
      assertThat(result.exitCode()).as("%s", result).isZero();
      List<JsonNode> lines = json(result);
      List<JsonNode> rows =
          lines.stream().filter(l -> l.get("kind").asText().equals("request")).toList();
      assertThat(rows).hasSize(n + 1);
      for (JsonNode r : rows) {
        double duration = r.get("durationMs").asDouble();
        assertThat(r.get("serverMs").asDouble()).as("%s", r).isGreaterThanOrEqualTo(waitMs);
        assertThat(r.get("timeToFirstByteMs").asDouble())
            .as("%s", r)
            .isGreaterThanOrEqualTo(r.get("serverMs").asDouble())
            .isLessThanOrEqualTo(duration);
        // The headers came with the first bytes: reading them is no part of the wait.
        assertThat(r.get("responseHeadersMs").asDouble()).as("%s", r).isLessThan(waitMs / 2.0);
        double sum = r.get("otherMs").asDouble();
        for (String phase :
            List.of("queueMs", "requestMs", "serverMs", "responseHeadersMs", "responseContentMs")) {
          sum += r.get(phase).isNumber() ? r.get(phase).asDouble() : 0;
        }
        assertThat(sum).as("%s", r).isCloseTo(duration, org.assertj.core.data.Offset.offset(1e-3));
      }
      JsonNode summary = lines.get(lines.size() - 1);
      String host = answer.get("root").asText().replaceAll("^http://|/$", "");
      List<String> groups = new ArrayList<>();
      summary
          .get("byPath")
          .forEach(
              g -> {
                groups.add(g.get("path").asText() + " " + g.get("count").asInt());
                assertThat(g.get("host").asText()).isEqualTo(host);
                assertThat(g.get("serverP50Ms").asDouble()).isGreaterThanOrEqualTo(waitMs);
              });
      assertThat(groups).containsExactly("/items/{id} 1", "/slow/{id} " + n);
    }
  }

  @Test
  void queryStringsShowOnlyWhenAskedAndTheAppDoesNotRedactThem() throws Exception {
    // The runtime redacts query strings itself unless the app turns that off.
    Map<String, String> unredacted = Map.of("DOTNET_SYSTEM_NET_HTTP_DISABLEURIREDACTION", "true");
    for (boolean show : List.of(true, false)) {
      try (TargetProcess target =
          TargetProcess.start(DotnetApps.TARGET_APP, List.of(), unredacted)) {
        List<String> args = new ArrayList<>(List.of("http", "-p", Long.toString(target.pid())));
        if (show) {
          args.add("--show-query");
        }
        args.addAll(List.of("--format", "csv"));
        try (RunningCli cli =
            Clrscope.start(Map.of(), Clrscope.root(), args.toArray(String[]::new))) {
          cli.awaitLine(l -> l.startsWith("time,status,durationMs,"), TIMEOUT);
          JsonNode answer = target.send("http 3");
          String first = answer.get("requests").get(0).get("url").asText();
          String line = cli.awaitLine(l -> l.contains("/ok?"), TIMEOUT);
          assertThat(line).endsWith("," + (show ? first : redacted(first)));
          cli.interrupt();
          CliResult result = cli.await(TIMEOUT);
          assertThat(result.exitCode()).as("%s", result).isZero();
          assertThat(result.stderr()).contains("Requests  3 (");
        }
      }
    }
  }
}
