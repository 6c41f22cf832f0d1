package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code clrscope contention} reports the waits in progress when it stops: TriageApp deadlocks two
 * threads while contention watches, and the summary lists both waits, begun and never ended, with
 * the thread, the lock's owner, the waiting method and line, and the time so far.
 */
class ContentionInProgressTest {
  @Test
  void aDeadlockMadeWhileWatchedIsStillWaitingWhenTheWatchEnds() {
    try (TargetProcess app = TriageCli.start(Map.of());
        RunningCli cli =
            Clrscope.start(
                Map.of(),
                Clrscope.root(),
                "contention",
                "-p",
                Long.toString(app.ready().pid()),
                "--duration",
                "8s",
                "--format",
                "json")) {
      cli.awaitStderrLine(l -> l.startsWith("Watching"), Duration.ofSeconds(60));
      long before = System.nanoTime();
      JsonNode facts = app.send("deadlock");
      CliResult r = cli.await(Duration.ofMinutes(1));
      long since = System.nanoTime() - before;
      assertThat(r.exitCode()).as("%s", r).isZero();
      JsonNode summary = r.stdoutJson().get("summary");
      Map<Integer, JsonNode> waiting = new HashMap<>();
      summary.get("inProgress").forEach(w -> waiting.put(w.get("threadId").asInt(), w));
      int in = facts.get("inTid").asInt();
      int out = facts.get("outTid").asInt();
      assertThat(waiting.keySet()).as("%s", summary).containsExactlyInAnyOrder(in, out);
      Path source = Path.of("Deadlock.cs");
      for (int[] pair : new int[][] {{in, out}, {out, in}}) {
        JsonNode w = waiting.get(pair[0]);
        assertThat(w.get("kind").asText()).isEqualTo("lock");
        assertThat(w.get("ownerThreadId").asInt()).isEqualTo(pair[1]);
        assertThat(w.get("objectId").asText()).startsWith("0x");
        // Begun after the deadlock command was sent, waiting until the watch's end.
        assertThat(w.get("soFarMs").asDouble()).isPositive().isLessThan(since / 1e6);
        assertThat(w.get("file").asText()).endsWith(source.toString());
      }
      assertThat(waiting.get(in).get("method").asText()).isEqualTo(facts.get("inMethod").asText());
      assertThat(waiting.get(in).get("line").asInt())
          .isEqualTo(SourceMarkers.line(TriageCli.APP, "Deadlock.cs", "transfer-in-waits"));
      assertThat(waiting.get(out).get("method").asText())
          .isEqualTo(facts.get("outMethod").asText());
      assertThat(waiting.get(out).get("line").asInt())
          .isEqualTo(SourceMarkers.line(TriageCli.APP, "Deadlock.cs", "transfer-out-waits"));
      assertThat(waiting.get(in).get("objectId").asText())
          .isNotEqualTo(waiting.get(out).get("objectId").asText());
    }
  }
}
