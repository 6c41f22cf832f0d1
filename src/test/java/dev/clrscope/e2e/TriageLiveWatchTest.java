package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * What only a live process shows, from {@code triage -p}'s watch of its counters: TriageApp's
 * {@code churn 1000} throws about 1,000 exceptions a second and forces a full compacting GC of 32
 * MB every 10 ms; the report has the time in GC and the exceptions per second over the watch, and
 * the watch's length.
 */
class TriageLiveWatchTest {
  private static TargetProcess app;
  private static JsonNode facts;

  @BeforeAll
  static void start() {
    app = TriageCli.start(Map.of());
    facts = app.send("churn 1000");
  }

  @AfterAll
  static void stop() {
    if (app != null) {
      app.close();
    }
  }

  @Test
  void timeInGcAndExceptionsPerSecondOverTheWatch() {
    JsonNode report =
        TriageCli.json("-p", Long.toString(app.ready().pid()), "--duration", "3s", "--no-heap");
    JsonNode gc = TriageCli.finding(report, "gc-time");
    assertThat(gc.get("severity").asText()).isEqualTo("warning");
    assertThat(TriageCli.fact(gc, "GC pause percent").asDouble()).isBetween(10.0, 100.0);
    assertThat(TriageCli.fact(gc, "seconds watched").asDouble()).isBetween(2.5, 10.0);
    JsonNode thrown = TriageCli.finding(report, "exception-rate");
    double rate = facts.get("rate").asDouble();
    assertThat(TriageCli.fact(thrown, "exceptions per second").asDouble())
        .isBetween(rate * 0.5, rate * 1.2);
    assertThat(thrown.get("next").get(0).asText())
        .isEqualTo("clrscope exceptions -p " + app.ready().pid() + " --duration 10s");
  }
}
