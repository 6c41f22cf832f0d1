package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code clrscope triage} on TriageApp's {@code finalizer} (the finalizer thread blocked in {@code
 * StuckResource}'s finalizer, 1,000 {@code PendingResource} ready for finalization behind it), live
 * and on a core: the finalizer thread, its stack with the line where it waits, and the queue.
 */
class TriageFinalizerTest {
  @TempDir static Path dir;
  private static TargetProcess app;
  private static JsonNode facts;
  private static Path core;

  @BeforeAll
  static void start() {
    app = TriageCli.start(Map.of());
    facts = app.send("finalizer");
    core = TriageCli.dump(app, dir.resolve("finalizer.core"));
  }

  @AfterAll
  static void stop() {
    if (app != null) {
      app.close();
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"live", "core"})
  void theBlockedFinalizerItsStackAndTheObjectsWaiting(String source) {
    JsonNode report = TriageCli.report(source, app, core, "--no-heap");
    JsonNode f = TriageCli.finding(report, "blocked-finalizer");
    assertThat(f.get("severity").asText()).isEqualTo("error");
    int tid = facts.get("finalizerTid").asInt();
    int line = SourceMarkers.line(TriageCli.APP, "StuckFinalizer.cs", "stuck-finalizer-waits");
    String method = facts.get("blockedMethod").asText();
    assertThat(f.get("title").asText())
        .startsWith(
            "The finalizer thread "
                + tid
                + " is blocked in "
                + method
                + " (StuckFinalizer.cs:"
                + line
                + "): ");
    JsonNode thread = f.get("evidence").get("threads").get(0);
    assertThat(thread.get("osId").asInt()).isEqualTo(tid);
    assertThat(TriageCli.hasFrame(thread.get("frames"), method, "StuckFinalizer.cs", line))
        .as("%s", thread)
        .isTrue();
    assertThat(TriageCli.fact(f, "ready: " + facts.get("waitingType").asText()).asInt())
        .isEqualTo(facts.get("waiting").asInt());
    assertThat(TriageCli.fact(f, "ready for finalization").asInt())
        .isGreaterThanOrEqualTo(facts.get("waiting").asInt());
  }
}
