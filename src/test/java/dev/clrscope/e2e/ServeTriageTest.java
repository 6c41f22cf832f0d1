package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code clrscope serve}'s collection rules triage the dumps they write: a rule fires for TriageApp
 * with two threads deadlocked, its core dump is triaged in a process of its own, the report lies
 * beside the dump (owner only), and {@code GET /rules} serves the findings with the firing.
 */
class ServeTriageTest {
  private static final Duration TIMEOUT = Duration.ofMinutes(3);
  private static final Pattern SERVING =
      Pattern.compile("Serving http://127\\.0\\.0\\.1:(\\d+)/metrics");
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @Test
  void aRulesDumpIsTriagedAndItsFindingsServedWithTheFiring(@TempDir Path dir) throws Exception {
    Path rules = dir.resolve("rules.json");
    Files.writeString(
        rules,
        "{\"rules\": [{\"name\": \"stuck\", \"process\": \"TriageApp\",\n"
            + "  \"counter\": \"dotnet.assembly.count\", \"above\": 0, \"collect\": \"dump\",\n"
            + "  \"coolDown\": \"1h\", \"into\": \""
            + dir.resolve("dumps")
            + "\"}]}\n");
    try (TargetProcess app = TriageCli.start(Map.of())) {
      JsonNode facts = app.send("deadlock");
      try (RunningCli serve =
          Clrscope.start(
              Map.of(),
              dir,
              "serve",
              "-p",
              Long.toString(app.ready().pid()),
              "--listen",
              "127.0.0.1:0",
              "--refresh-interval",
              "1",
              "--rules",
              rules.toString(),
              "--duration",
              "150s")) {
        String base = "http://127.0.0.1:" + serve.awaitStderr(SERVING, TIMEOUT);
        await().atMost(TIMEOUT).until(() -> firing(base) != null && firing(base).has("triage"));
        JsonNode firing = firing(base);
        Path dump = Path.of(firing.get("file").asText());
        assertThat(dump.getParent()).isEqualTo(dir.resolve("dumps"));
        JsonNode triage = firing.get("triage");
        assertThat(triage.has("error")).as("%s", triage).isFalse();
        Path report = Path.of(triage.get("report").asText());
        assertThat(report).isEqualTo(dump.resolveSibling(dump.getFileName() + ".triage.json"));
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(report)))
            .isEqualTo("rw-------");
        JsonNode first = triage.get("findings").get(0);
        assertThat(first.get("kind").asText()).isEqualTo("deadlock");
        assertThat(first.get("severity").asText()).isEqualTo("critical");
        assertThat(first.get("title").asText())
            .contains(facts.get("inTid").asInt() + " (" + facts.get("inThread").asText() + ")")
            .contains(facts.get("outTid").asInt() + " (" + facts.get("outThread").asText() + ")");
        // The report beside the dump is triage's whole report, evidence and next commands too.
        JsonNode whole = TargetProcess.JSON.readTree(Files.readAllBytes(report));
        assertThat(whole.get("findings").get(0).get("title").asText())
            .isEqualTo(first.get("title").asText());
        assertThat(whole.get("findings").get(0).get("evidence").get("threads")).hasSize(2);
        assertThat(serve.stderr())
            .contains("rule stuck: triaged " + dump + ": ")
            .contains("the first critical: " + first.get("title").asText());
        serve.signal("TERM");
        assertThat(serve.await(TIMEOUT).exitCode()).isZero();
      }
    }
  }

  private static JsonNode firing(String base) throws Exception {
    HttpResponse<byte[]> r =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(base + "/rules")).GET().build(),
            HttpResponse.BodyHandlers.ofByteArray());
    JsonNode firings = TargetProcess.JSON.readTree(r.body()).get(0).path("firings");
    return firings.isEmpty() ? null : firings.get(0);
  }
}
