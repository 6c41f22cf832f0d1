package dev.clrscope.e2e;

import static dev.clrscope.e2e.AnalyzeCli.byKey;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What reads a runtime through its own DAC, on .NET 8, 9 and 10: {@code analyze -p} on the paused
 * live app, then a core the runtime wrote ({@code dump}) read by {@code dump-heap} and {@code
 * analyze}. A self-contained app's DAC is the libmscordaccore.so beside it; the machine's .NET 10
 * has its own in the shared framework. The facts are those of TargetApp's {@code facts 1000}.
 *
 * <p>Left out on .NET 8 until the DAC reads its statics (issue 32's second round): static field
 * names in {@code gcroot}, {@code timerinfo}, {@code threadpoolqueue}; docs/runtimes.md lists them.
 */
class RuntimeDacTest {
  private static final int ITEMS = 1000;

  @TempDir Path dir;

  @ParameterizedTest
  @Execution(ExecutionMode.CONCURRENT)
  @EnumSource(Runtime.class)
  @RunsCommands({"analyze live", "dump", "dump-heap CORE", "analyze CORE"})
  void theFactsOfTheLiveAppAndOfItsCore(Runtime runtime) throws Exception {
    try (TargetProcess app =
        TargetProcess.startUnwaited(runtime, DotnetApps.TARGET_APP, List.of(), Map.of())) {
      long pid = app.ready().pid();
      JsonNode facts = app.send("facts " + ITEMS);
      String itemType = facts.get("itemType").asText();

      // Live: one pause for the commands, the process free afterwards.
      List<JsonNode> live =
          AnalyzeCli.json(AnalyzeCli.pid(pid), "dumpheap -stat -type " + itemType, "clrstack -all");
      assertItems(live.get(0), itemType);
      assertBlockedThread(live.get(1), facts);
      DacLiveProcessTest.assertRunsFree(app);

      Path core = dir.resolve("app-" + runtime + ".core");
      CliResult dump =
          Clrscope.run(
              AnalyzeCli.TIMEOUT,
              "dump",
              "-p",
              Long.toString(pid),
              "--type",
              "full",
              "-o",
              core.toString());
      assertThat(dump.exitCode()).as("%s", dump).isZero();
      try {
        CliResult report =
            Clrscope.run(
                AnalyzeCli.TIMEOUT,
                "dump-heap",
                "report",
                core.toString(),
                "--format",
                "json",
                "--type",
                "FactItem");
        assertThat(report.exitCode()).as("%s", report).isZero();
        JsonNode item = RuntimeSessionsTest.type(report.stdoutJson(), itemType);
        assertThat(item.get("count").asLong()).isEqualTo(ITEMS);
        // A FactItem: header and method table, 5 fields of 4 or 8 bytes, a char, a bool and a
        // struct of two ints: 56 bytes each, as the live runtime's own heap walk says.
        assertThat(item.get("totalSize").asLong()).isEqualTo(ITEMS * 56L);
        JsonNode array = RuntimeSessionsTest.type(report.stdoutJson(), itemType + "[]");
        assertThat(array.get("count").asLong()).isEqualTo(1);
        assertThat(array.get("retainedSize").asLong())
            .isGreaterThanOrEqualTo(array.get("totalSize").asLong() + ITEMS * 56L);

        List<String> target = AnalyzeCli.core(core);
        List<JsonNode> docs =
            AnalyzeCli.json(
                target,
                "dumpheap -stat -type " + itemType,
                "clrstack -all",
                "dumpheap -short -type " + itemType + "[]");
        assertItems(docs.get(0), itemType);
        assertBlockedThread(docs.get(1), facts);
        String array0 = docs.get(2).get("objects").get(0).get("address").asText();
        JsonNode obj = AnalyzeCli.one(target, "dumpobj " + array0);
        assertThat(obj.get("length").asLong()).isEqualTo(ITEMS);
        if (runtime != Runtime.NET8) {
          // gcroot names the static field that holds the array (.NET 8's statics: round 2).
          assertThat(AnalyzeCli.one(target, "gcroot " + array0))
              .anySatisfy(
                  p ->
                      assertThat(p.get("root").asText())
                          .isEqualTo(
                              "static "
                                  + facts.get("holderType").asText()
                                  + "."
                                  + facts.get("staticField").asText()));
        }
      } finally {
        Files.deleteIfExists(core);
      }
    }
  }

  private static void assertItems(JsonNode stat, String itemType) {
    JsonNode items = byKey(stat.get("types"), "type").get(itemType);
    assertThat(items).as("%s", stat).isNotNull();
    assertThat(items.get("count").asLong()).isEqualTo(ITEMS);
    assertThat(items.get("totalSize").asLong()).isEqualTo(ITEMS * 56L);
  }

  private static void assertBlockedThread(JsonNode clrstack, JsonNode facts) {
    String tid = facts.get("blockedTid").asText();
    JsonNode thread = byKey(clrstack.get("threads"), "osId").get(tid);
    assertThat(thread).as("thread %s in %s", tid, clrstack).isNotNull();
    List<String> methods = new ArrayList<>();
    thread.get("frames").forEach(f -> methods.add(f.path("method").asText("")));
    assertThat(methods).contains(facts.get("blockedMethod").asText() + "()");
  }
}
