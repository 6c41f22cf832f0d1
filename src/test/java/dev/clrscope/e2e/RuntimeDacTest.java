package dev.clrscope.e2e;

import static dev.clrscope.e2e.AnalyzeCli.byKey;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * What reads a runtime through its own DAC, on .NET 8, 9 and 10: {@code analyze -p} on the paused
 * live app, then a core the runtime wrote ({@code dump}) read by {@code dump-heap} and {@code
 * analyze}. A self-contained app's DAC is the libmscordaccore.so beside it; the machine's .NET 10
 * has its own in the shared framework. The facts are those of TargetApp's {@code facts 1000},
 * {@code exact-facts} and {@code queue 50}, and live those of {@code triage-facts}: the same on
 * every runtime, statics included (.NET 8 keeps them in each module's DomainLocalModule, .NET 9 and
 * later per type).
 */
class RuntimeDacTest {
  private static final int ITEMS = 1000;
  private static final int QUEUED = 50;

  @TempDir Path dir;

  @ParameterizedTest
  @Execution(ExecutionMode.CONCURRENT)
  @EnumSource(Runtime.class)
  @RunsCommands({"analyze live", "dump", "dump-heap CORE", "analyze CORE", "dump-heap collect"})
  void theFactsOfTheLiveAppAndOfItsCore(Runtime runtime) throws Exception {
    try (TargetProcess app =
        TargetProcess.startUnwaited(runtime, DotnetApps.TARGET_APP, List.of(), Map.of())) {
      long pid = app.ready().pid();
      JsonNode facts = app.send("facts " + ITEMS);
      JsonNode exact = app.send("exact-facts");
      JsonNode queued = app.send("queue " + QUEUED);
      String itemType = facts.get("itemType").asText();

      // Live: one pause for the commands, the process free afterwards.
      List<JsonNode> live =
          AnalyzeCli.json(AnalyzeCli.pid(pid), "dumpheap -stat -type " + itemType, "clrstack -all");
      assertItems(live.get(0), itemType);
      assertBlockedThread(live.get(1), facts);
      DacLiveProcessTest.assertRunsFree(app);

      // The runtime's own heap walk (EventPipe) names nested and generic types as the DAC does.
      CliResult walked =
          Clrscope.run(
              AnalyzeCli.TIMEOUT,
              "dump-heap",
              "-p",
              Long.toString(pid),
              "--format",
              "json",
              "--top",
              "0");
      assertThat(walked.exitCode()).as("%s", walked).isZero();
      assertExactTypes(walked.stdoutJson(), exact);

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
                "--top",
                "0");
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
        assertExactTypes(report.stdoutJson(), exact);

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
        assertStatics(target, facts, array0);
        assertThreadPoolQueue(target, queued);
        assertExact(target, exact);
      } finally {
        Files.deleteIfExists(core);
      }
    }
  }

  /**
   * {@code triage-facts} on the paused process: the timer queues (a static of TimerQueue) hold 3
   * timers calling OnTick and one calling OnOtherTick once, each with its due time and period; the
   * thread pool's global queue (a static of ThreadPool) holds the work items and tasks queued
   * behind its blocked workers, and each worker's own queue (a static of WorkStealingQueueList:
   * {@code _queues} on .NET 8, {@code s_queues} later) the item it queued there. .NET 8 printed no
   * timer and ended threadpoolqueue with an internal error before its statics were read.
   */
  @ParameterizedTest
  @Execution(ExecutionMode.CONCURRENT)
  @EnumSource(Runtime.class)
  @RunsCommands({"analyze live"})
  void theTimersAndTheThreadPoolsQueuesOfTheLiveApp(Runtime runtime) throws Exception {
    try (TargetProcess app =
        TargetProcess.startUnwaited(runtime, DotnetApps.TARGET_APP, List.of(), Map.of())) {
      JsonNode triage = app.send("triage-facts");
      List<JsonNode> docs =
          AnalyzeCli.json(AnalyzeCli.pid(app.ready().pid()), "timerinfo", "threadpoolqueue");
      String tick = triage.get("tickCallback").asText() + "(System.Object)";
      String other = triage.get("otherCallback").asText() + "(System.Object)";
      Map<String, JsonNode> perCallback = byKey(docs.get(0).get("byCallback"), "callback");
      assertThat(perCallback.get(tick).get("count").asInt())
          .isEqualTo(triage.get("tickTimers").asInt());
      assertThat(perCallback.get(other).get("count").asInt()).isEqualTo(1);
      int ticks = 0;
      for (JsonNode t : docs.get(0).get("timers")) {
        if (t.get("callback").asText().equals(tick)) {
          ticks++;
          assertThat(t.get("dueTimeMs").asLong()).isEqualTo(triage.get("tickDueMs").asLong());
          assertThat(t.get("periodMs").asLong()).isEqualTo(triage.get("tickPeriodMs").asLong());
        } else if (t.get("callback").asText().equals(other)) {
          assertThat(t.get("dueTimeMs").asLong()).isEqualTo(triage.get("otherDueMs").asLong());
          assertThat(t.get("periodMs").isNull()).isTrue();
        }
      }
      assertThat(ticks).isEqualTo(triage.get("tickTimers").asInt());

      Map<String, Integer> global = new HashMap<>();
      Map<String, Integer> local = new HashMap<>();
      for (JsonNode w : docs.get(1).get("workItems")) {
        (w.get("queue").asText().startsWith("local") ? local : global)
            .merge(w.path("callback").asText(""), 1, Integer::sum);
      }
      assertThat(global)
          .containsExactlyInAnyOrderEntriesOf(
              Map.of(
                  triage.get("workItemCallback").asText() + "(System.Object)",
                  triage.get("globalWorkItems").asInt(),
                  triage.get("queuedTaskMethod").asText() + "()",
                  triage.get("queuedTasks").asInt()));
      assertThat(local)
          .containsExactlyEntriesOf(
              Map.of(
                  triage.get("localWorkCallback").asText() + "(Int32)",
                  triage.get("localWorkItems").asInt()));
      DacLiveProcessTest.assertRunsFree(app);
    }
  }

  /**
   * {@code lock-waiters 3} on the paused process: syncblk lists the lock held by its thread with 3
   * waiters, on every runtime. The DAC's own count of additional threads is 0 on .NET 10 with
   * threads waiting; the lock's held count (1 while owned, 2 more per waiting thread) says 3.
   */
  @ParameterizedTest
  @Execution(ExecutionMode.CONCURRENT)
  @EnumSource(Runtime.class)
  @RunsCommands({"analyze live"})
  void syncblkCountsTheThreadsWaitingForAHeldLock(Runtime runtime) throws Exception {
    try (TargetProcess app =
        TargetProcess.startUnwaited(runtime, DotnetApps.TARGET_APP, List.of(), Map.of())) {
      JsonNode waiting = app.send("lock-waiters 3");
      JsonNode rows = AnalyzeCli.one(AnalyzeCli.pid(app.ready().pid()), "syncblk");
      List<JsonNode> held = new ArrayList<>();
      for (JsonNode row : rows) {
        if (row.get("owningOsThreadId").asInt() == waiting.get("holderTid").asInt()) {
          held.add(row);
        }
      }
      assertThat(held).as("%s", rows).hasSize(1);
      assertThat(held.get(0).get("type").asText()).isEqualTo(waiting.get("lockType").asText());
      assertThat(held.get(0).get("monitorHeld").asInt()).isEqualTo(1 + 2 * 3);
      assertThat(held.get(0).get("waiters").asInt()).isEqualTo(waiting.get("waiters").asInt());
      DacLiveProcessTest.assertRunsFree(app);
    }
  }

  /**
   * What reads statics: gcroot names the static field that holds the array; the timer that {@code
   * facts} made is listed (the timer queues are a static of TimerQueue), with its due time, period,
   * callback and state; dumpmt shows the holder's statics with their values.
   */
  private static void assertStatics(List<String> target, JsonNode facts, String array) {
    String holderType = facts.get("holderType").asText();
    List<JsonNode> docs = AnalyzeCli.json(target, "gcroot " + array, "timerinfo");
    assertThat(docs.get(0))
        .anySatisfy(
            p ->
                assertThat(p.get("root").asText())
                    .isEqualTo("static " + holderType + "." + facts.get("staticField").asText()));
    JsonNode timers = docs.get(1);
    String callback = facts.get("timerCallback").asText() + "(System.Object)";
    assertThat(byKey(timers.get("byCallback"), "callback").get(callback).get("count").asInt())
        .isEqualTo(1);
    JsonNode ticker = byKey(timers.get("timers"), "callback").get(callback);
    assertThat(ticker.get("dueTimeMs").asLong()).isEqualTo(facts.get("timerDueMs").asLong());
    assertThat(ticker.get("periodMs").asLong()).isEqualTo(facts.get("timerPeriodMs").asLong());
    assertThat(AnalyzeCli.one(target, "dumpobj " + ticker.get("state").asText()).get("string"))
        .hasToString("\"" + facts.get("timerState").asText() + "\"");
    Map<String, JsonNode> statics = AnalyzeCommandTest.statics(target, holderType);
    assertThat(statics.get(facts.get("countField").asText()).get("value").asLong())
        .isEqualTo(facts.get("count").asLong());
    assertThat(statics.get(facts.get("labelField").asText()).get("string").asText())
        .isEqualTo(facts.get("label").asText());
  }

  /**
   * The work items queued behind the blocked thread pool, each once and in the order they were
   * queued (each passes its own state, {@code work-I}).
   */
  private static void assertThreadPoolQueue(List<String> target, JsonNode queued) {
    JsonNode tpq = AnalyzeCli.one(target, "threadpoolqueue");
    String callback = queued.get("callback").asText() + "(System.Object)";
    assertThat(tpq.get("byCallback")).hasSize(1);
    assertThat(tpq.get("byCallback").get(0).get("callback").asText()).isEqualTo(callback);
    assertThat(tpq.get("byCallback").get(0).get("count").asInt()).isEqualTo(QUEUED);
    JsonNode items = tpq.get("workItems");
    assertThat(items).hasSize(QUEUED);
    String[] states = new String[QUEUED];
    for (int i = 0; i < QUEUED; i++) {
      assertThat(items.get(i).get("queue").asText()).isEqualTo("global");
      states[i] = "dumpobj " + items.get(i).get("state").asText();
    }
    List<String> texts = new ArrayList<>();
    AnalyzeCli.json(target, states).forEach(d -> texts.add(d.get("string").asText()));
    assertThat(texts)
        .containsExactlyElementsOf(IntStream.range(0, QUEUED).mapToObj(i -> "work-" + i).toList());
  }

  /**
   * {@code exact-facts}: the queue's items once each and in order; the VT column of value-type
   * fields; a shared generic's field typed as declared; one generic type named alike by dumpheap,
   * fill, dcd, retained and dominators.
   */
  private static void assertExact(List<String> target, JsonNode exact) {
    Map<String, JsonNode> statics =
        AnalyzeCommandTest.statics(target, exact.get("holderType").asText());
    String numbers = statics.get(exact.get("queueField").asText()).get("value").asText();
    String regions = statics.get(exact.get("regionsField").asText()).get("value").asText();
    String orders = statics.get(exact.get("ordersField").asText()).get("value").asText();
    String regionType = exact.get("regionType").asText();
    String orderType = exact.get("orderType").asText();
    List<JsonNode> docs =
        AnalyzeCli.json(
            target,
            "dumpconcurrentqueue " + numbers,
            "dumpobj " + orders,
            "dumpconcurrentdictionary " + regions,
            "dumpheap -stat -type " + orderType + ">",
            "fill -top 1000",
            "dominators -top 50");

    JsonNode queue = docs.get(0).get("items");
    int first = exact.get("queueFirst").asInt();
    List<Long> values = new ArrayList<>();
    queue.forEach(i -> values.add(i.get("value").asLong()));
    assertThat(values)
        .containsExactlyElementsOf(
            IntStream.range(first, first + exact.get("queueItems").asInt())
                .mapToObj(Long::valueOf)
                .toList());

    Map<String, JsonNode> list = byKey(docs.get(1).get("fields"), "name");
    assertThat(list.get("_items").get("fieldType").asText()).isEqualTo(orderType + "[]");
    assertThat(list.get("_items").get("valueType").asInt()).isZero();
    assertThat(list.get("_size").get("value").asInt()).isEqualTo(exact.get("listedOrders").asInt());
    assertThat(list.get("_size").get("valueType").asInt()).isEqualTo(1);
    String items = list.get("_items").get("value").asText();
    String order =
        AnalyzeCli.one(target, "dumparray -length 1 " + items)
            .get("elements")
            .get(0)
            .get("value")
            .asText();
    Map<String, JsonNode> fields =
        byKey(AnalyzeCli.one(target, "dumpobj " + order).get("fields"), "name");
    assertThat(fields.get("Id").get("valueType").asInt()).isEqualTo(1);
    assertThat(fields.get("Amount").get("valueType").asInt()).isEqualTo(1);
    assertThat(fields.get("Amount").get("fieldType").asText()).isEqualTo("TargetApp.Money");
    assertThat(fields.get("Paid").get("valueType").asInt()).isEqualTo(1);
    assertThat(fields.get("Customer").get("valueType").asInt()).isZero();
    assertThat(fields.get("Payload").get("valueType").asInt()).isZero();

    JsonNode entries = docs.get(2).get("entries");
    assertThat(entries).hasSize(exact.get("regions").asInt());
    entries.forEach(e -> assertThat(e.get("valueType").asText()).isEqualTo(regionType));
    String region = entries.get(0).get("value").asText();

    Map<String, JsonNode> stat = byKey(docs.get(3).get("types"), "type");
    assertThat(stat.get(regionType).get("count").asInt()).isEqualTo(exact.get("regions").asInt());
    assertThat(stat.get(regionType + "+Entry[]").get("count").asInt())
        .isEqualTo(exact.get("regions").asInt());

    JsonNode fill = byKey(docs.get(4).get("types"), "type").get(regionType);
    assertThat(fill).as("fill names %s", regionType).isNotNull();
    assertThat(fill.get("count").asInt()).isEqualTo(exact.get("regions").asInt());
    assertThat(fill.get("used").asInt())
        .isEqualTo(exact.get("regions").asInt() * exact.get("ordersPerRegion").asInt());

    JsonNode top = byKey(docs.get(5).get("dominators"), "address").get(regions);
    assertThat(top).as("the regions among the dominators").isNotNull();
    assertThat(top.get("type").asText())
        .isEqualTo(
            "System.Collections.Concurrent.ConcurrentDictionary<System.String, "
                + regionType
                + ">");

    JsonNode retained = AnalyzeCli.one(target, "retained " + region);
    assertThat(retained.get("type").asText()).isEqualTo(regionType);
    Map<String, JsonNode> set = byKey(retained.get("retainedSet"), "type");
    assertThat(set.get(regionType).get("count").asInt()).isEqualTo(1);
    assertThat(set.get(regionType + "+Entry[]").get("count").asInt()).isEqualTo(1);
    assertThat(set.get(orderType).get("count").asInt())
        .isEqualTo(exact.get("ordersPerRegion").asInt());
  }

  /**
   * The generic and nested types of {@code exact-facts} in a dump-heap report (a live walk's or a
   * core's): named as the DAC names them, the generic arguments a comma and a space apart, each
   * nested type after the type it is declared in.
   */
  private static void assertExactTypes(JsonNode report, JsonNode exact) {
    String regionType = exact.get("regionType").asText();
    int regions = exact.get("regions").asInt();
    assertThat(RuntimeSessionsTest.type(report, regionType).get("count").asInt())
        .isEqualTo(regions);
    assertThat(RuntimeSessionsTest.type(report, regionType + "+Entry[]").get("count").asInt())
        .isEqualTo(regions);
    assertThat(
            RuntimeSessionsTest.type(report, exact.get("listType").asText()).get("count").asInt())
        .isEqualTo(1);
    assertThat(
            RuntimeSessionsTest.type(report, exact.get("nodeType").asText()).get("count").asInt())
        .isEqualTo(exact.get("nodes").asInt());
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
