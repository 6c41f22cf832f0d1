package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code clrscope triage} on TriageApp's {@code finalizer} (the finalizer thread blocked in {@code
 * StuckResource}'s finalizer, 1,000 {@code PendingResource} ready for finalization behind it), live
 * and on a core: the finalizer thread, its stack with the line where it waits, and the queue.
 */
class TriageFinalizerTest {
  @RegisterExtension static final TriageRun run = TriageRun.of("finalizer");

  @ParameterizedTest
  @ValueSource(strings = {"live", "core"})
  void theBlockedFinalizerItsStackAndTheObjectsWaiting(String source) {
    JsonNode report = run.report(source, "--no-heap");
    JsonNode f = TriageCli.finding(report, "blocked-finalizer");
    assertThat(f.get("severity").asText()).isEqualTo("error");
    int tid = run.facts().get("finalizerTid").asInt();
    int line = SourceMarkers.line(TriageCli.APP, "StuckFinalizer.cs", "stuck-finalizer-waits");
    String method = run.facts().get("blockedMethod").asText();
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
    assertThat(TriageCli.fact(f, "ready: " + run.facts().get("waitingType").asText()).asInt())
        .isEqualTo(run.facts().get("waiting").asInt());
    assertThat(TriageCli.fact(f, "ready for finalization").asInt())
        .isGreaterThanOrEqualTo(run.facts().get("waiting").asInt());
  }
}
