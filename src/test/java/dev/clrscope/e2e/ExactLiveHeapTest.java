package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dump-heap -p PID --exact}: the paused process read through the DAC, against a core of the
 * same idle process and the runtime's own walk (EventPipe, a forced GC) taken after both.
 */
class ExactLiveHeapTest {
  private static final Duration TIMEOUT = Duration.ofMinutes(3);
  private static final int ITEMS = 100;
  private static final int GARBAGE = 10;

  private static JsonNode json(String... args) {
    CliResult r = Clrscope.run(TIMEOUT, args);
    assertThat(r.exitCode()).as("%s", r).isZero();
    return r.stdoutJson();
  }

  private static Map<String, Long> counts(JsonNode rows) {
    Map<String, Long> out = new TreeMap<>();
    for (JsonNode t : rows) {
      out.put(t.get("type").asText(), t.get("count").asLong());
    }
    return out;
  }

  @Test
  void aCoreTheExactLiveReadAndTheRuntimesWalkAgreeOnEveryTypesCount(@TempDir Path dir) {
    try (TargetProcess app = TargetProcess.start(DotnetApps.TARGET_APP)) {
      JsonNode facts = app.send("facts " + ITEMS);
      JsonNode heapFacts = app.send("heap-facts " + GARBAGE);
      assertThat(heapFacts.get("noGcRegion").asBoolean()).as("%s", heapFacts).isTrue();
      String pid = Long.toString(app.pid());
      Path core = dir.resolve("app.core");
      CliResult dumped =
          Clrscope.run(TIMEOUT, "dump", "-p", pid, "--type", "heap", "-o", core.toString());
      assertThat(dumped.exitCode()).as("%s", dumped).isZero();

      JsonNode fromCore =
          json("dump-heap", "report", core.toString(), "--format", "json", "--top", "0");
      CliResult exact =
          Clrscope.run(
              TIMEOUT,
              "dump-heap",
              "report",
              "-p",
              pid,
              "--exact",
              "--format",
              "json",
              "--top",
              "0");
      assertThat(exact.exitCode()).as("%s", exact).isZero();
      assertThat(exact.stderr())
          .containsPattern("Process " + pid + " was paused for [0-9]+\\.[0-9]{3} m?s");
      // Let go: it answers at once.
      assertThat(app.send("ping").get("event").asText()).isEqualTo("pong");
      JsonNode live = exact.stdoutJson();

      // The app was idle and the read allocates nothing in it: the same heap, type by type, the
      // garbage made in the no-GC region included.
      assertThat(counts(live.get("types"))).isEqualTo(counts(fromCore.get("types")));
      assertThat(counts(live.get("unreachable"))).isEqualTo(counts(fromCore.get("unreachable")));
      String item = facts.get("itemType").asText();
      assertThat(counts(live.get("types")).get(item)).isEqualTo(ITEMS);
      String garbage = heapFacts.get("garbageType").asText();
      assertThat(counts(live.get("unreachable")).get(garbage)).isEqualTo(GARBAGE);

      // The runtime's walk forces a GC: the garbage is gone, and the app's live objects are the
      // same. Its session allocates a little in the process while the walk runs (EventSource's
      // arguments, buffers), and it names a nested type without its enclosing type: nested types
      // are left out of the comparison, and the rest differ by those few objects at most.
      Map<String, Long> walked =
          counts(
              json("dump-heap", "report", "-p", pid, "--format", "json", "--top", "0")
                  .get("types"));
      assertThat(walked).doesNotContainKey(garbage);
      Map<String, Long> exactLive = counts(live.get("types"));
      for (String type :
          new String[] {
            item,
            item + "[]",
            heapFacts.get("stackHeldType").asText(),
            facts.get("threadStaticType").asText()
          }) {
        assertThat(walked.get(type)).as(type).isEqualTo(exactLive.get(type));
      }
      TreeSet<String> types = new TreeSet<>(walked.keySet());
      types.addAll(exactLive.keySet());
      long apart = 0;
      long total = 0;
      for (String type : types) {
        if (type.indexOf('+') < 0) {
          long after = walked.getOrDefault(type, 0L);
          long before = exactLive.getOrDefault(type, 0L);
          apart += Math.abs(after - before);
          total += before;
        }
      }
      assertThat(apart).as("objects counted differently of %d", total).isLessThanOrEqualTo(100);
    }
  }
}
