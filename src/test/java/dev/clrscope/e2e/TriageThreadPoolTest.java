package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code clrscope triage} on TriageApp's {@code sync-over-async}: a thread pool of 4 workers, each
 * blocked on a task's {@code .Result} in {@code HandleRequest}, 10 work items queued behind them,
 * and a thread of its own blocked in {@code BuildReport}. Live and on a core: the starved pool (the
 * 4 workers, their frame and line, the queue by callback, the limits), sync over async counted by
 * the frame that blocks, pool threads apart; live only, the work waiting in the queue for the whole
 * watch.
 */
class TriageThreadPoolTest {
  // 4 workers at most: SetMaxThreads refuses fewer workers than processors.
  @RegisterExtension
  static final TriageRun run =
      TriageRun.of("sync-over-async").withEnv(Map.of("DOTNET_PROCESSOR_COUNT", "2"));

  private static List<Integer> workerTids() {
    List<Integer> tids = new ArrayList<>();
    run.facts().get("workerTids").forEach(t -> tids.add(t.asInt()));
    return tids;
  }

  private static List<Integer> osIds(JsonNode finding) {
    List<Integer> ids = new ArrayList<>();
    finding.get("evidence").get("threads").forEach(t -> ids.add(t.get("osId").asInt()));
    return ids;
  }

  private static String frame(String method, String marker) {
    int line = SourceMarkers.line(TriageCli.APP, "SyncOverAsync.cs", marker);
    return method + " (SyncOverAsync.cs:" + line + ")";
  }

  @ParameterizedTest
  @ValueSource(strings = {"live", "core"})
  void theStarvedPoolItsQueueByCallbackAndWhereItsFourWorkersBlock(String source) {
    JsonNode report = run.report(source);
    JsonNode f = TriageCli.finding(report, "threadpool-starvation");
    assertThat(f.get("severity").asText()).isEqualTo("critical");
    assertThat(report.get("findings").get(0)).isEqualTo(f);
    String where = frame(run.facts().get("workerMethod").asText(), "handle-request-blocks");
    assertThat(f.get("title").asText())
        .isEqualTo(
            "The thread pool is starved: 10 work items wait and all 4 workers (at most 4) are"
                + " blocked, in "
                + where
                + ".");
    assertThat(TriageCli.fact(f, "queued work items").asInt())
        .isEqualTo(run.facts().get("queued").asInt());
    assertThat(TriageCli.fact(f, "queued: " + run.facts().get("queuedCallback").asText()).asInt())
        .isEqualTo(run.facts().get("queued").asInt());
    assertThat(TriageCli.fact(f, "workers").asInt()).isEqualTo(run.facts().get("workers").asInt());
    assertThat(TriageCli.fact(f, "maximum workers").asInt()).isEqualTo(4);
    assertThat(TriageCli.fact(f, "minimum workers").asInt()).isEqualTo(4);
    assertThat(TriageCli.fact(f, "blocked workers").asInt()).isEqualTo(4);
    assertThat(osIds(f)).containsExactlyInAnyOrderElementsOf(workerTids());
    for (JsonNode t : f.get("evidence").get("threads")) {
      assertThat(t.get("role").asText()).isEqualTo("blocked in " + where);
    }
  }

  @ParameterizedTest
  @ValueSource(strings = {"live", "core"})
  void syncOverAsyncCountedByTheBlockingFramePoolThreadsApart(String source) {
    JsonNode report = run.report(source);
    List<JsonNode> found = TriageCli.findings(report, "sync-over-async");
    assertThat(found).hasSize(2);
    JsonNode pool = found.get(0);
    assertThat(pool.get("severity").asText()).isEqualTo("error");
    assertThat(TriageCli.fact(pool, "thread pool").asText()).isEqualTo("yes");
    assertThat(TriageCli.fact(pool, "threads").asInt()).isEqualTo(4);
    assertThat(TriageCli.fact(pool, "blocking frame").asText())
        .isEqualTo(frame(run.facts().get("workerMethod").asText(), "handle-request-blocks"));
    assertThat(TriageCli.fact(pool, "awaited").asText())
        .isEqualTo("async TriageApp.SyncOverAsync.LoadCustomerAsync");
    assertThat(osIds(pool)).containsExactlyInAnyOrderElementsOf(workerTids());
    assertThat(pool.get("evidence").get("objects")).hasSize(4);
    for (JsonNode o : pool.get("evidence").get("objects")) {
      assertThat(o.get("type").asText())
          .contains("+AsyncStateMachineBox<TriageApp.SyncOverAsync+<LoadCustomerAsync>d__");
    }

    JsonNode own = found.get(1);
    assertThat(own.get("severity").asText()).isEqualTo("warning");
    assertThat(TriageCli.fact(own, "thread pool").asText()).isEqualTo("no");
    assertThat(osIds(own)).containsExactly(run.facts().get("threadTid").asInt());
    assertThat(own.get("evidence").get("threads").get(0).get("name").asText())
        .isEqualTo(run.facts().get("threadName").asText());
    assertThat(TriageCli.fact(own, "blocking frame").asText())
        .isEqualTo(frame(run.facts().get("threadMethod").asText(), "build-report-blocks"));
    assertThat(own.get("title").asText())
        .startsWith(
            "Thread "
                + run.facts().get("threadTid").asInt()
                + " ("
                + run.facts().get("threadName").asText()
                + ") blocks waiting for async TriageApp.SyncOverAsync.LoadCustomerAsync in ");
  }

  @Test
  void liveTheQueueWaitedAllThroughTheWatch() {
    JsonNode report =
        TriageCli.json("-p", Long.toString(run.pid()), "--duration", "3s", "--no-heap");
    JsonNode f = TriageCli.finding(report, "threadpool-queue");
    assertThat(TriageCli.fact(f, "queue length").asInt())
        .isEqualTo(run.facts().get("queued").asInt());
    assertThat(TriageCli.fact(f, "smallest queue length").asInt())
        .isEqualTo(run.facts().get("queued").asInt());
    assertThat(TriageCli.fact(f, "pool threads").asInt())
        .isEqualTo(run.facts().get("workers").asInt());
    JsonNode watch = null;
    for (JsonNode c : report.get("checked")) {
      if (c.get("area").asText().equals("live watch")) {
        watch = c;
      }
    }
    assertThat(watch).as("%s", report.get("checked")).isNotNull();
    assertThat(watch.get("result").asText()).contains("thread pool queue 10, 4 pool threads");
  }
}
