package dev.clrscope.e2e;

import static dev.clrscope.e2e.AnalyzeCli.address;
import static dev.clrscope.e2e.AnalyzeCli.byKey;
import static dev.clrscope.e2e.AnalyzeCli.hex;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code clrscope analyze CORE} on cores {@code clrscope dump} wrote of TargetApp after {@code
 * facts 1000} and {@code triage-facts}: each fact the app stated, read back through the CLI's
 * commands in JSON (counts per type, field values, the static field's name in gcroot, the blocked
 * thread's method, the stored exception and its inner one, the thread-static, timers, queues,
 * tasks, async methods, locks), and side by side with the real dotnet-dump on the same cores.
 */
class AnalyzeCommandTest {
  private static final Duration DUMP_TIMEOUT = Duration.ofMinutes(3);

  @TempDir static Path dir;
  private static TargetProcess app;
  private static JsonNode facts;
  private static JsonNode triage;

  @BeforeAll
  static void dump() {
    app = TargetProcess.start(DotnetApps.TARGET_APP);
    facts = app.send("facts 1000");
    triage = app.send("triage-facts");
    for (String type : List.of("full", "heap")) {
      CliResult r =
          Clrscope.run(
              DUMP_TIMEOUT,
              "dump",
              "-p",
              Long.toString(app.pid()),
              "--type",
              type,
              "-o",
              core(type).toString());
      assertThat(r.exitCode()).as("%s", r).isZero();
    }
  }

  @AfterAll
  static void stop() {
    if (app != null) {
      app.close();
    }
  }

  static Path core(String type) {
    return dir.resolve(type + ".core");
  }

  private static List<String> target(String type) {
    return AnalyzeCli.core(core(type));
  }

  /** A static field's row of {@code dumpmt} (found by {@code name2ee}) of the type named. */
  static Map<String, JsonNode> statics(List<String> target, String type) {
    JsonNode found = AnalyzeCli.one(target, "name2ee " + type);
    assertThat(found.get("type").asText()).isEqualTo(type);
    JsonNode mt = AnalyzeCli.one(target, "dumpmt " + found.get("methodTable").asText());
    return byKey(mt.get("fields"), "name");
  }

  @ParameterizedTest
  @ValueSource(strings = {"full", "heap"})
  void dumpheapStatCountsEachTypeTheAppMade(String type) {
    List<JsonNode> docs =
        AnalyzeCli.json(
            target(type), "dumpheap -stat", "name2ee " + facts.get("itemType").asText());
    Map<String, JsonNode> types = byKey(docs.get(0).get("types"), "type");
    String item = facts.get("itemType").asText();
    JsonNode mt = AnalyzeCli.one(target(type), "dumpmt " + docs.get(1).get("methodTable").asText());
    long baseSize = mt.get("baseSize").asLong();
    assertThat(types.get(item).get("count").asLong()).isEqualTo(1000);
    assertThat(types.get(item).get("totalSize").asLong()).isEqualTo(1000 * baseSize);
    assertThat(types.get(item).get("methodTable").asText())
        .isEqualTo(mt.get("methodTable").asText());
    assertThat(types.get(item + "[]").get("count").asLong()).isEqualTo(1);
    assertThat(types.get(facts.get("threadStaticType").asText()).get("count").asLong())
        .isEqualTo(1);
    long objects = 0;
    long bytes = 0;
    for (JsonNode t : docs.get(0).get("types")) {
      objects += t.get("count").asLong();
      bytes += t.get("totalSize").asLong();
    }
    assertThat(docs.get(0).get("objects").asLong()).isEqualTo(objects);
    assertThat(docs.get(0).get("bytes").asLong()).isEqualTo(bytes);
  }

  @ParameterizedTest
  @ValueSource(strings = {"full", "heap"})
  void dumpobjShowsEveryFieldOfAnItemAndGcrootNamesTheStaticField(String type) {
    String itemType = facts.get("itemType").asText();
    JsonNode arrays = AnalyzeCli.one(target(type), "dumpheap -short -type " + itemType + "[]");
    assertThat(arrays.get("objects")).hasSize(1);
    long array = address(arrays.get("objects").get(0).get("address"));
    JsonNode elements =
        AnalyzeCli.one(target(type), "dumparray -start 500 -length 2 " + hex(array));
    assertThat(elements.get("length").asLong()).isEqualTo(1000);
    assertThat(elements.get("elementType").asText()).isEqualTo(itemType);
    assertThat(elements.get("elements")).hasSize(2);
    assertThat(elements.get("elements").get(0).get("index").asLong()).isEqualTo(500);
    assertThat(elements.get("elements").get(0).get("type").asText()).isEqualTo(itemType);
    long item = address(elements.get("elements").get(0).get("value"));

    // Addresses as SOS takes them: without 0x too.
    List<JsonNode> docs =
        AnalyzeCli.json(target(type), "dumpobj " + Long.toHexString(item), "gcroot " + hex(item));
    JsonNode obj = docs.get(0);
    assertThat(obj.get("type").asText()).isEqualTo(itemType);
    Map<String, JsonNode> fields = byKey(obj.get("fields"), "name");
    assertThat(fields.keySet())
        .containsExactlyInAnyOrder("Index", "Square", "Name", "Ratio", "Even", "Letter", "Where");
    assertThat(fields.get("Index").get("value").asLong()).isEqualTo(500);
    assertThat(fields.get("Index").get("fieldType").asText()).isEqualTo("System.Int32");
    assertThat(fields.get("Square").get("value").asLong()).isEqualTo(250_000);
    assertThat(fields.get("Name").get("string").asText()).isEqualTo("item-500");
    assertThat(fields.get("Ratio").get("value").asDouble()).isEqualTo(125.0);
    assertThat(fields.get("Even").get("value").asBoolean()).isTrue();
    assertThat(fields.get("Letter").get("value").asText())
        .isEqualTo(String.valueOf((char) ('a' + 500 % 26)));
    assertThat(fields.get("Where").get("valueType").asInt()).isEqualTo(1);
    assertThat(fields.get("Where").get("fieldType").asText()).isEqualTo("TargetApp.FactPoint");

    // Stack slots of the thread pool's threads hold the array of statics too: the static field is
    // one root among others, named, with the shortest path.
    String staticRoot =
        "static " + facts.get("holderType").asText() + "." + facts.get("staticField").asText();
    assertThat(docs.get(1))
        .anySatisfy(
            p -> {
              assertThat(p.get("root").asText()).isEqualTo(staticRoot);
              assertThat(p.get("kind").asText()).isEqualTo("static");
              assertThat(p.get("path"))
                  .extracting(s -> address(s.get("address")))
                  .containsExactly(array, item);
              assertThat(p.get("path").get(0).get("type").asText()).isEqualTo(itemType + "[]");
            });

    JsonNode size = AnalyzeCli.one(target(type), "objsize " + hex(array));
    assertThat(size.get("objects").asLong()).isEqualTo(1 + 2 * 1000);
  }

  @ParameterizedTest
  @ValueSource(strings = {"full", "heap"})
  void theBlockedThreadItsMethodItsThreadStaticAndItsLock(String type) {
    int tid = facts.get("blockedTid").asInt();
    List<JsonNode> docs =
        AnalyzeCli.json(
            target(type),
            "threads",
            "clrstack -all",
            "setthread -t " + tid,
            "dumpheap -short -type " + facts.get("threadStaticType").asText());
    Map<String, JsonNode> threads = byKey(docs.get(0).get("threads"), "osId");
    assertThat(threads.get(Integer.toString(tid)).get("managedId").asInt())
        .isEqualTo(facts.get("blockedManagedId").asInt());
    assertThat(docs.get(0).get("threadCount").asInt()).isEqualTo(docs.get(0).get("threads").size());
    JsonNode stack = byKey(docs.get(1).get("threads"), "osId").get(Integer.toString(tid));
    List<String> methods = new ArrayList<>();
    stack.get("frames").forEach(f -> methods.add(f.path("method").asText(null)));
    int blocked = methods.indexOf(facts.get("blockedMethod").asText() + "()");
    assertThat(blocked).as("%s", methods).isPositive();
    assertThat(methods.get(blocked - 1)).isEqualTo("System.Threading.Thread.Sleep(Int32)");
    assertThat(docs.get(2).get("osId").asInt()).isEqualTo(tid);

    long threadFact = address(docs.get(3).get("objects").get(0).get("address"));
    Map<String, JsonNode> holder = statics(target(type), facts.get("holderType").asText());
    long locked = address(holder.get("Locked").get("value"));
    List<JsonNode> more =
        AnalyzeCli.json(
            target(type),
            "setthread -t " + tid,
            "clrstack",
            "dumpobj " + hex(threadFact),
            "gcroot " + hex(threadFact),
            "gcroot " + hex(locked));
    assertThat(more.get(1).get("threads")).hasSize(1);
    assertThat(more.get(1).get("threads").get(0).get("osId").asInt()).isEqualTo(tid);
    assertThat(byKey(more.get(2).get("fields"), "name").get("Marker").get("value").asLong())
        .isEqualTo(facts.get("threadMarker").asLong());
    assertThat(more.get(3))
        .anySatisfy(
            p -> {
              assertThat(p.get("root").asText())
                  .isEqualTo(
                      "thread static "
                          + facts.get("holderType").asText()
                          + "."
                          + facts.get("threadStaticField").asText()
                          + " (thread "
                          + tid
                          + ")");
              assertThat(p.get("kind").asText()).isEqualTo("thread static");
            });
    assertThat(more.get(4))
        .anySatisfy(
            p -> {
              assertThat(p.get("kind").asText()).isEqualTo("stack");
              assertThat(p.get("thread").asInt()).isEqualTo(tid);
              assertThat(p.get("root").asText())
                  .startsWith("thread " + tid + " " + facts.get("blockedMethod").asText() + "()");
            });
  }

  @ParameterizedTest
  @ValueSource(strings = {"full", "heap"})
  void peShowsTheStoredExceptionItsInnerOneAndStaticValues(String type) {
    Map<String, JsonNode> holder = statics(target(type), facts.get("holderType").asText());
    assertThat(holder.get(facts.get("countField").asText()).get("value").asInt())
        .isEqualTo(facts.get("count").asInt());
    assertThat(holder.get(facts.get("labelField").asText()).get("string").asText())
        .isEqualTo(facts.get("label").asText());
    assertThat(holder.get(facts.get("threadStaticField").asText()).get("attr").asText())
        .isEqualTo("threadstatic");
    long stored = address(holder.get(facts.get("exceptionField").asText()).get("value"));

    JsonNode pe = AnalyzeCli.one(target(type), "pe " + hex(stored));
    JsonNode chain = pe.get("exceptions");
    assertThat(chain).hasSize(2);
    JsonNode outer = chain.get(0);
    assertThat(address(outer.get("address"))).isEqualTo(stored);
    assertThat(outer.get("type").asText()).isEqualTo(facts.get("exceptionType").asText());
    assertThat(outer.get("message").asText()).isEqualTo(facts.get("message").asText());
    assertThat(outer.get("hresult").asText())
        .isEqualTo(String.format("0x%08x", facts.get("hresult").asInt()));
    assertThat(outer.get("stackTrace").get(0).get("method").asText())
        .startsWith(facts.get("throwMethod").asText() + "(");
    JsonNode inner = chain.get(1);
    assertThat(inner.get("depth").asInt()).isEqualTo(1);
    assertThat(inner.get("type").asText()).isEqualTo(facts.get("innerType").asText());
    assertThat(inner.get("message").asText()).isEqualTo(facts.get("innerMessage").asText());
    assertThat(inner.get("hresult").asText())
        .isEqualTo(String.format("0x%08x", facts.get("innerHresult").asInt()));
    assertThat(inner.get("stackTrace").get(0).get("method").asText())
        .startsWith(facts.get("innerThrowMethod").asText() + "(");
  }

  @Test
  void timersWorkItemsTasksAndConcurrentCollections() {
    List<String> core = target("full");
    Map<String, JsonNode> holder = statics(core, triage.get("holderType").asText());
    List<JsonNode> docs =
        AnalyzeCli.json(
            core,
            "timerinfo",
            "tpq",
            "tks " + holder.get("Pending").get("value").asText(),
            "tks " + holder.get("Completed").get("value").asText(),
            "tks " + holder.get("Faulted").get("value").asText(),
            "tks " + holder.get("Canceled").get("value").asText(),
            "tks -v 0x1000000",
            "dcq " + holder.get("Queue").get("value").asText(),
            "dcd " + holder.get("Dictionary").get("value").asText());

    // Timers: three calling OnTick every minute, due in an hour; one calling OnOtherTick, once.
    JsonNode timers = docs.get(0).get("timers");
    String tick = triage.get("tickCallback").asText() + "(System.Object)";
    String other = triage.get("otherCallback").asText() + "(System.Object)";
    List<JsonNode> ticks = new ArrayList<>();
    timers.forEach(
        t -> {
          if (t.get("callback").asText().equals(tick)) {
            ticks.add(t);
          }
        });
    assertThat(ticks).hasSize(triage.get("tickTimers").asInt());
    assertThat(ticks)
        .allSatisfy(
            t -> {
              assertThat(t.get("dueTimeMs").asLong()).isEqualTo(triage.get("tickDueMs").asLong());
              assertThat(t.get("periodMs").asLong()).isEqualTo(triage.get("tickPeriodMs").asLong());
              assertThat(t.get("stateType").asText()).isEqualTo("System.Int32");
            });
    JsonNode once = byKey(timers, "callback").get(other);
    assertThat(once.get("dueTimeMs").asLong()).isEqualTo(triage.get("otherDueMs").asLong());
    assertThat(once.get("periodMs").isNull()).isTrue();
    Map<String, JsonNode> perCallback = byKey(docs.get(0).get("byCallback"), "callback");
    assertThat(perCallback.get(tick).get("count").asInt()).isEqualTo(3);
    assertThat(perCallback.get(other).get("count").asInt()).isEqualTo(1);

    // Thread-pool queues: the global queue's work items and tasks, each worker's local item.
    Map<String, Integer> global = new HashMap<>();
    Map<String, Integer> local = new HashMap<>();
    for (JsonNode w : docs.get(1).get("workItems")) {
      (w.get("queue").asText().startsWith("local") ? local : global)
          .merge(w.path("callback").asText(""), 1, Integer::sum);
    }
    assertThat(global.get(triage.get("workItemCallback").asText() + "(System.Object)"))
        .isEqualTo(triage.get("globalWorkItems").asInt());
    assertThat(global.get(triage.get("queuedTaskMethod").asText() + "()"))
        .isEqualTo(triage.get("queuedTasks").asInt());
    assertThat(local.get(triage.get("localWorkCallback").asText() + "(Int32)"))
        .isEqualTo(triage.get("localWorkItems").asInt());

    // Tasks' states in words.
    assertThat(docs.get(2).get("status").asText()).isEqualTo("WaitingForActivation");
    assertThat(docs.get(3).get("status").asText()).isEqualTo("RanToCompletion");
    assertThat(docs.get(4).get("status").asText()).isEqualTo("Faulted");
    assertThat(docs.get(5).get("status").asText()).isEqualTo("Canceled");
    assertThat(docs.get(6).get("status").asText()).isEqualTo("RanToCompletion");
    assertThat(docs.get(6).get("flags"))
        .extracting(JsonNode::asText)
        .containsExactly("RanToCompletion");

    // The queue's items in order, the dictionary's every key and value.
    List<String> items = new ArrayList<>();
    docs.get(7).get("items").forEach(i -> items.add(i.get("string").asText()));
    List<String> expected = new ArrayList<>();
    for (int i = 0; i < triage.get("queueItems").asInt(); i++) {
      expected.add(triage.get("queueItemPrefix").asText() + i);
    }
    assertThat(items).isEqualTo(expected);
    Map<Integer, String> entries = new HashMap<>();
    docs.get(8)
        .get("entries")
        .forEach(e -> entries.put(e.get("key").asInt(), e.get("valueString").asText()));
    assertThat(entries).hasSize(triage.get("dictionaryItems").asInt());
    entries.forEach(
        (k, v) -> assertThat(v).isEqualTo(triage.get("dictionaryValuePrefix").asText() + k));
  }

  @Test
  void asyncMethodsLocksAndParallelStacks() {
    List<String> core = target("full");
    Map<String, JsonNode> holder = statics(core, triage.get("holderType").asText());
    long gate = address(holder.get("Gate").get("value"));
    List<JsonNode> docs =
        AnalyzeCli.json(core, "dumpasync", "dumpobj " + hex(gate), "syncblk", "pstacks");

    JsonNode inner = null;
    JsonNode outer = null;
    for (JsonNode m : docs.get(0)) {
      String machine = m.get("stateMachine").asText();
      if (machine.startsWith(triage.get("innerStateMachine").asText())) {
        inner = m;
      } else if (machine.startsWith(triage.get("outerStateMachine").asText())) {
        outer = m;
      }
    }
    assertThat(inner).as("%s", docs.get(0)).isNotNull();
    assertThat(outer).as("%s", docs.get(0)).isNotNull();
    assertThat(inner.get("method").asText()).isEqualTo("TargetApp.TriageFacts.InnerAsync");
    assertThat(inner.get("state").asInt()).isZero();
    assertThat(inner.get("status").asText()).isEqualTo("WaitingForActivation");
    // The inner method awaits the gate's task and continues into the outer one, which awaits it.
    long gateTask = address(byKey(docs.get(1).get("fields"), "name").get("_task").get("value"));
    assertThat(address(inner.get("awaiting"))).isEqualTo(gateTask);
    assertThat(address(inner.get("continuation"))).isEqualTo(address(outer.get("address")));
    assertThat(address(outer.get("awaiting"))).isEqualTo(address(inner.get("address")));
    assertThat(address(outer.get("address")))
        .isEqualTo(address(holder.get("Pending").get("value")));

    // The lock held on an object with a hash code is a sync block owned by its thread.
    assertThat(docs.get(2))
        .anySatisfy(
            b -> {
              assertThat(b.get("owningOsThreadId").asInt())
                  .isEqualTo(triage.get("lockTid").asInt());
              assertThat(b.get("type").asText()).isEqualTo("System.Object");
              assertThat(b.get("recursion").asInt()).isEqualTo(1);
            });

    // Every worker of the thread pool blocked in the same method: one branch of that many threads.
    List<JsonNode> occupy = new ArrayList<>();
    find(docs.get(3), triage.get("occupyMethod").asText() + "()", occupy);
    assertThat(occupy).hasSize(1);
    assertThat(occupy.get(0).get("threadCount").asInt()).isEqualTo(triage.get("workers").asInt());
    List<JsonNode> holding = new ArrayList<>();
    find(
        docs.get(3),
        triage.get("lockMethod").asText() + "(System.Threading.ManualResetEventSlim)",
        holding);
    assertThat(holding).hasSize(1);
    assertThat(holding.get(0).get("threads"))
        .extracting(JsonNode::asInt)
        .containsExactly(triage.get("lockTid").asInt());
  }

  private static void find(JsonNode nodes, String frame, List<JsonNode> found) {
    for (JsonNode n : nodes) {
      if (n.get("frame").asText().equals(frame)) {
        found.add(n);
      }
      find(n.get("children"), frame, found);
    }
  }

  @Test
  void heapLayoutGenerationsStringsAndHelp() {
    List<String> core = target("full");
    String itemType = facts.get("itemType").asText();
    List<JsonNode> docs =
        AnalyzeCli.json(
            core,
            "eeheap -gc",
            "dumpgen 0 -stat -type " + itemType,
            "dumpgen 1 -stat -type " + itemType,
            "dumpgen 2 -stat -type " + itemType,
            "dumpheap -strings -min 30 -max 40",
            "help",
            "dumpheap -type " + itemType + " -min 1000",
            "finalizequeue");
    JsonNode eeheap = docs.get(0);
    assertThat(eeheap.get("gcMode").asText()).isEqualTo("Workstation");
    assertThat(eeheap.get("layout").asText()).isEqualTo("regions");
    assertThat(eeheap.get("heaps").asInt()).isEqualTo(1);
    assertThat(eeheap.get("segments"))
        .extracting(s -> s.get("kind").asText())
        .contains("gen0", "gen2", "large", "pinned");
    long items = 0;
    for (int g = 1; g <= 3; g++) {
      for (JsonNode t : docs.get(g).get("types")) {
        items += t.get("type").asText().equals(itemType) ? t.get("count").asLong() : 0;
      }
    }
    assertThat(items).isEqualTo(1000);
    Map<String, JsonNode> strings = byKey(docs.get(4).get("strings"), "value");
    assertThat(strings.get("queued-3").get("count").asInt()).isEqualTo(1);
    assertThat(docs.get(5))
        .extracting(c -> c.get("command").asText())
        .contains("dumpheap", "dumpobj", "gcroot", "clrstack", "pstacks", "timerinfo", "exit");
    // Of the items and their array, the array alone is 1,000 bytes or more.
    assertThat(docs.get(6).get("objects")).hasSize(1);
    assertThat(docs.get(6).get("objects").get(0).get("type").asText()).isEqualTo(itemType + "[]");
    assertThat(docs.get(6).get("summary").get("objects").asLong()).isEqualTo(1);

    // An item's generation and segment, as gcwhere says and eeheap lists.
    long array =
        address(
            AnalyzeCli.one(core, "dumpheap -short -type " + itemType + "[]")
                .get("objects")
                .get(0)
                .get("address"));
    JsonNode where = AnalyzeCli.one(core, "gcwhere " + hex(array + 8));
    assertThat(address(where.get("object"))).isEqualTo(array);
    assertThat(where.get("objectType").asText()).isEqualTo(itemType + "[]");
    assertThat(byKey(eeheap.get("segments"), "segment")).containsKey(where.get("segment").asText());

    // The finalization queue, counted as dotnet-dump counts it.
    String theirs = DotnetDump.analyze(core("full"), "finalizequeue");
    long registered = docs.get(7).get("registered").asLong() + docs.get(7).get("ready").asLong();
    assertThat(theirs).contains("Total " + String.format("%,d", registered) + " objects");
  }

  @ParameterizedTest
  @ValueSource(strings = {"full", "heap"})
  void dumpheapStatEqualsDotnetDumpsForEveryType(String type) {
    Map<Long, DotnetDump.Row> reference = DotnetDump.dumpheapStat(core(type));
    JsonNode stat = AnalyzeCli.one(target(type), "dumpheap -stat");
    Map<Long, DotnetDump.Row> ours = new HashMap<>();
    for (JsonNode t : stat.get("types")) {
      long mt = address(t.get("methodTable"));
      ours.put(
          mt,
          new DotnetDump.Row(
              mt, t.get("count").asLong(), t.get("totalSize").asLong(), t.get("type").asText()));
    }
    assertThat(ours).isEqualTo(reference);
  }

  @Test
  void gcrootFindsAPathForTheSameObjectsAsDotnetDump() {
    List<String> core = target("full");
    Map<String, JsonNode> holder = statics(core, facts.get("holderType").asText());
    Map<String, JsonNode> triageHolder = statics(core, triage.get("holderType").asText());
    long threadFact =
        address(
            AnalyzeCli.one(core, "dumpheap -short -type " + facts.get("threadStaticType").asText())
                .get("objects")
                .get(0)
                .get("address"));
    List<Long> objects =
        List.of(
            address(holder.get(facts.get("exceptionField").asText()).get("value")),
            address(holder.get("Locked").get("value")),
            threadFact,
            address(triageHolder.get("Queue").get("value")),
            address(triageHolder.get("Pending").get("value")));
    List<String> commands = new ArrayList<>();
    objects.forEach(o -> commands.add("gcroot " + hex(o)));
    List<JsonNode> ours = AnalyzeCli.json(core, commands.toArray(String[]::new));
    for (int i = 0; i < objects.size(); i++) {
      long o = objects.get(i);
      List<Long> theirs = new ArrayList<>();
      for (String line :
          DotnetDump.analyze(core("full"), "gcroot " + Long.toHexString(o)).split("\n")) {
        String l = line.strip();
        if (l.startsWith("-> ")) {
          theirs.add(Long.parseUnsignedLong(l.substring(3).strip().split("\\s+")[0], 16));
        }
      }
      assertThat(theirs).as("dotnet-dump's gcroot of %s", hex(o)).contains(o);
      assertThat(ours.get(i)).as("our gcroot of %s", hex(o)).isNotEmpty();
      assertThat(ours.get(i))
          .allSatisfy(
              p -> {
                JsonNode path = p.get("path");
                assertThat(address(path.get(path.size() - 1).get("address"))).isEqualTo(o);
              });
    }
  }

  @Test
  void threadsAreTheThreadsDotnetDumpLists() {
    Set<Integer> theirs = new HashSet<>();
    boolean table = false;
    for (String line : DotnetDump.analyze(core("full"), "clrthreads").split("\n")) {
      String l = line.strip();
      if (l.startsWith("DBG ")) {
        table = true;
      } else if (table && !l.isEmpty()) {
        theirs.add(Integer.parseInt(l.split("\\s+")[2], 16));
      }
    }
    Set<Integer> ours = new HashSet<>();
    AnalyzeCli.one(target("full"), "threads")
        .get("threads")
        .forEach(t -> ours.add(t.get("osId").asInt()));
    assertThat(ours).isEqualTo(theirs).contains(facts.get("blockedTid").asInt());
  }

  @Test
  void tableAndCsvFormats() {
    String itemType = facts.get("itemType").asText();
    CliResult csv = AnalyzeCli.run(target("full"), "csv", "dumpheap -stat -type " + itemType);
    assertThat(csv.exitCode()).as("%s", csv).isZero();
    assertThat(csv.stdoutLines().get(0)).isEqualTo("methodTable,count,totalSize,type");
    assertThat(csv.stdoutLines())
        .anySatisfy(l -> assertThat(l).endsWith(",1000,56000," + itemType));
    CliResult table =
        AnalyzeCli.run(target("full"), "table", "dumpheap -stat -type " + itemType, "help dumpobj");
    assertThat(table.exitCode()).as("%s", table).isZero();
    assertThat(table.stdoutLines())
        .anySatisfy(
            l ->
                assertThat(l)
                    .matches(".*\\s1,000\\s+56,000\\s+" + itemType.replace(".", "\\.") + "$"));
    assertThat(table.stdout()).contains("Total 1,001 objects").contains("dumpobj ADDR");
  }

  @Test
  void commandsFromStdinLinesGoOnAfterAnError() throws Exception {
    try (RunningCli cli =
        Clrscope.start(
            Map.of(),
            Clrscope.root(),
            "analyze",
            core("full").toString(),
            "--format",
            "json",
            "--symbol-server",
            "none")) {
      cli.sendLine("dumpheap -stat -type " + facts.get("itemType").asText() + "[]");
      cli.sendLine("nosuchcommand");
      cli.sendLine("dumpobj 0x1000");
      cli.sendLine("dumpobj 1004");
      cli.sendLine("threads");
      cli.closeStdin();
      CliResult r = cli.await(AnalyzeCli.TIMEOUT);
      assertThat(r.exitCode()).as("%s", r).isEqualTo(1);
      List<JsonNode> docs = AnalyzeCli.documents(r);
      assertThat(docs).hasSize(2);
      assertThat(docs.get(0).get("types").get(0).get("count").asInt()).isEqualTo(1);
      assertThat(docs.get(1).get("threads")).isNotEmpty();
      assertThat(r.stderr().lines().toList())
          .containsExactly(
              "no command nosuchcommand (help lists the commands; dotnet-dump's names work)",
              "dumpobj: 0x1000 is not an object: it is not in the GC heap",
              "dumpobj: 0x1004 is not an object address (objects are 8-byte aligned)");
    }
  }
}
