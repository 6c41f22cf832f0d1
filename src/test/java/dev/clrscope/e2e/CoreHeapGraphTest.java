package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code dump-heap report|roots|dominators|diff} on core dumps of TargetApp, read through the DAC:
 * the exact graph. A core after {@code facts 1000}, then one after {@code heap-facts 100} and a
 * .gcdump of the same process; retained sizes checked byte for byte against what the app made,
 * garbage (made in a no-GC region) reported apart, root paths naming the static field and the
 * thread's method.
 */
class CoreHeapGraphTest {
  private static final Duration TIMEOUT = Duration.ofMinutes(3);
  private static final int ITEMS = 1000;
  private static final int HEAP_FACTS = 100;

  @TempDir static Path dir;
  private static TargetProcess app;
  private static JsonNode facts;
  private static JsonNode heapFacts;

  @BeforeAll
  static void dump() {
    app = TargetProcess.start(DotnetApps.TARGET_APP);
    facts = app.send("facts " + ITEMS);
    core(before());
    heapFacts = app.send("heap-facts " + HEAP_FACTS);
    assertThat(heapFacts.get("noGcRegion").asBoolean()).as("%s", heapFacts).isTrue();
    core(after());
    // Last: the walk forces a GC, which collects the garbage.
    CliResult r =
        Clrscope.run(
            TIMEOUT,
            "dump-heap",
            "collect",
            "-p",
            Long.toString(app.pid()),
            "-o",
            gcdump().toString());
    assertThat(r.exitCode()).as("%s", r).isZero();
  }

  private static void core(Path file) {
    CliResult r =
        Clrscope.run(
            TIMEOUT,
            "dump",
            "-p",
            Long.toString(app.pid()),
            "--type",
            "heap",
            "-o",
            file.toString());
    assertThat(r.exitCode()).as("%s", r).isZero();
  }

  @AfterAll
  static void stop() {
    if (app != null) {
      app.close();
    }
  }

  static Path before() {
    return dir.resolve("before.core");
  }

  static Path after() {
    return dir.resolve("after.core");
  }

  static Path gcdump() {
    return dir.resolve("after.gcdump");
  }

  private static JsonNode json(String... args) {
    CliResult r = Clrscope.run(TIMEOUT, args);
    assertThat(r.exitCode()).as("%s", r).isZero();
    return r.stdoutJson();
  }

  /** A type's base size, as the runtime's method table has it (analyze's dumpmt). */
  static long baseSize(Path core, String type) {
    JsonNode found = AnalyzeCli.one(AnalyzeCli.core(core), "name2ee " + type);
    JsonNode mt =
        AnalyzeCli.one(AnalyzeCli.core(core), "dumpmt " + found.get("methodTable").asText());
    return mt.get("baseSize").asLong();
  }

  /**
   * The bytes of the strings "item-0".."item-(N-1)" as the runtime sizes them: 22 bytes (header,
   * method table, length, terminator) and 2 a character.
   */
  static long itemNameBytes(int n) {
    long total = 0;
    for (int i = 0; i < n; i++) {
      total += 22 + 2L * ("item-" + i).length();
    }
    return total;
  }

  @Test
  void retainedSizesAreWhatTheAppHoldsToTheByte() {
    String item = facts.get("itemType").asText();
    long itemSize = baseSize(after(), item);
    JsonNode doc =
        json("dump-heap", "report", after().toString(), "--format", "json", "--top", "0");
    assertThat(doc.get("problems")).as("%s", doc).isEmpty();
    Map<String, JsonNode> types = AnalyzeCli.byKey(doc.get("types"), "type");
    // Each item holds its own name and nothing else holds it; the array, held by the static
    // alone, holds the items: 24 bytes of header, method table and length, 8 per element.
    long names = itemNameBytes(ITEMS);
    assertThat(types.get(item).get("count").asLong()).isEqualTo(ITEMS);
    assertThat(types.get(item).get("totalSize").asLong()).isEqualTo(ITEMS * itemSize);
    assertThat(types.get(item).get("retainedSize").asLong()).isEqualTo(ITEMS * itemSize + names);
    long array = 24 + 8L * ITEMS;
    assertThat(types.get(item + "[]").get("totalSize").asLong()).isEqualTo(array);
    assertThat(types.get(item + "[]").get("retainedSize").asLong())
        .isEqualTo(array + ITEMS * itemSize + names);
    // The thread's local holds its object alone: 8 bytes of header, 8 of method table, a long.
    assertThat(types.get(heapFacts.get("stackHeldType").asText()).get("retainedSize").asLong())
        .isEqualTo(24);

    // The garbage, made in a no-GC region, is on the heap but reported apart, never as live.
    String garbage = heapFacts.get("garbageType").asText();
    assertThat(types).doesNotContainKey(garbage);
    Map<String, JsonNode> unreachable = AnalyzeCli.byKey(doc.get("unreachable"), "type");
    assertThat(unreachable.get(garbage).get("count").asLong()).isEqualTo(HEAP_FACTS);
    assertThat(unreachable.get(garbage).get("totalSize").asLong()).isEqualTo(HEAP_FACTS * 24L);
    long unreachableObjects = 0;
    long unreachableBytes = 0;
    for (JsonNode t : doc.get("unreachable")) {
      unreachableObjects += t.get("count").asLong();
      unreachableBytes += t.get("totalSize").asLong();
    }
    assertThat(doc.get("unreachableObjects").asLong()).isEqualTo(unreachableObjects);
    assertThat(doc.get("unreachableSize").asLong()).isEqualTo(unreachableBytes);
    long live = 0;
    long liveBytes = 0;
    for (JsonNode t : doc.get("types")) {
      live += t.get("count").asLong();
      liveBytes += t.get("totalSize").asLong();
    }
    assertThat(live + unreachableObjects).isEqualTo(doc.get("objects").asLong());
    assertThat(liveBytes + unreachableBytes).isEqualTo(doc.get("totalSize").asLong());
  }

  /**
   * A heap walked in two halves on two threads, as one of 64 MiB or more is, is the graph one walk
   * makes: every count, size, retained size, dominator and path the same, to the byte.
   */
  @Test
  void aHeapWalkedInTwoIsTheGraphOneWalkMakes() {
    String item = facts.get("itemType").asText();
    JsonNode items = AnalyzeCli.one(AnalyzeCli.core(after()), "dumpheap -type " + item + " -short");
    String oneItem = items.get("objects").get(ITEMS / 2).get("address").asText();
    String core = after().toString();
    List<String[]> commands =
        List.of(
            new String[] {"dump-heap", "report", core, "--format", "json", "--top", "0"},
            new String[] {"dump-heap", "dominators", core, "--format", "json"},
            new String[] {
              "dump-heap", "roots", core, "--type", item.replace(".", "\\."), "--format", "json"
            },
            new String[] {"analyze", core, "--symbol-server", "none", "-c", "gcroot " + oneItem});
    Map<String, String> inTwo = Map.of("CLRSCOPE_JAVA_OPTS", "-Dclrscope.heap.twoWalksFrom=0");
    for (String[] args : commands) {
      CliResult one =
          Clrscope.run(TIMEOUT, Map.of("CLRSCOPE_JAVA_OPTS", ""), Clrscope.root(), args);
      CliResult two = Clrscope.run(TIMEOUT, inTwo, Clrscope.root(), args);
      assertThat(one.exitCode()).as("%s", one).isZero();
      assertThat(two.exitCode()).as("%s", two).isZero();
      assertThat(two.stdout()).as(String.join(" ", args)).isEqualTo(one.stdout());
    }
  }

  @Test
  void everyTypeCountedAsAnalyzesDumpheapStatCountsIt() {
    JsonNode doc =
        json("dump-heap", "report", after().toString(), "--format", "json", "--top", "0");
    JsonNode stat = AnalyzeCli.one(AnalyzeCli.core(after()), "dumpheap -stat");
    long objects = 0;
    for (JsonNode t : doc.get("types")) {
      objects += t.get("count").asLong();
    }
    for (JsonNode t : doc.get("unreachable")) {
      objects += t.get("count").asLong();
    }
    long free = 0;
    for (JsonNode t : stat.get("types")) {
      if (t.get("type").asText().equals("Free")) {
        free = t.get("count").asLong();
      }
    }
    // dumpheap counts free space as objects of type Free; the graph leaves it out.
    assertThat(objects).isEqualTo(stat.get("objects").asLong() - free);
  }

  @Test
  void rootPathsNameTheStaticFieldAndTheThreadsMethod() {
    String array = facts.get("itemType").asText() + "[]";
    JsonNode paths =
        json(
            "dump-heap",
            "roots",
            after().toString(),
            "--type",
            array.replace(".", "\\.").replace("[]", "\\[\\]"),
            "--format",
            "json");
    assertThat(paths).hasSize(1);
    assertThat(paths.get(0).get("root").asText())
        .isEqualTo(
            "static field "
                + facts.get("holderType").asText()
                + "."
                + facts.get("staticField").asText());
    assertThat(paths.get(0).get("path")).hasSize(1);
    assertThat(paths.get(0).get("path").get(0).get("type").asText()).isEqualTo(array);

    JsonNode held =
        json(
            "dump-heap",
            "roots",
            after().toString(),
            "--type",
            heapFacts.get("stackHeldType").asText(),
            "--format",
            "json");
    assertThat(held).hasSize(1);
    assertThat(held.get(0).get("root").asText())
        .startsWith(
            "stack thread "
                + heapFacts.get("stackTid").asInt()
                + " "
                + heapFacts.get("stackMethod").asText()
                + "(");
  }

  @Test
  void dominatorsPutTheArrayAboveItsItems() {
    JsonNode tree = json("dump-heap", "dominators", after().toString(), "--format", "json");
    String item = facts.get("itemType").asText();
    JsonNode array = null;
    for (JsonNode node : tree) {
      if (node.get("type").asText().equals(item + "[]")) {
        array = node;
      }
    }
    assertThat(array).as("%s", tree).isNotNull();
    assertThat(array.get("retained").asLong())
        .isEqualTo(24 + 8L * ITEMS + ITEMS * baseSize(after(), item) + itemNameBytes(ITEMS));
  }

  @Test
  void diffTakesAnyMixOfCoresAndGcdumps() {
    String held = heapFacts.get("stackHeldType").asText();
    String garbage = heapFacts.get("garbageType").asText();
    String item = facts.get("itemType").asText();
    for (Path later : List.of(after(), gcdump())) {
      JsonNode diff =
          json(
              "dump-heap",
              "diff",
              "--before",
              before().toString(),
              "--after",
              later.toString(),
              "--format",
              "json",
              "--top",
              "0");
      Map<String, JsonNode> types = AnalyzeCli.byKey(diff.get("types"), "type");
      assertThat(types.get(held).get("countDelta").asLong()).as("%s", later).isEqualTo(1);
      assertThat(types.get("System.String[]").get("sizeDelta").asLong())
          .as("%s", later)
          .isGreaterThanOrEqualTo(24 + 8L * HEAP_FACTS);
      // Garbage is in neither: the core has it apart, the walk's GC collected it.
      assertThat(types).as("%s", later).doesNotContainKey(garbage);
      // The items did not change: unchanged types are left out.
      assertThat(types).as("%s", later).doesNotContainKey(item);
    }
  }

  @Test
  void convertWritesAGcdumpThatDotnetGcdumpReportsWithDumpheapsCounts() throws Exception {
    Path written = dir.resolve("converted.gcdump");
    CliResult r =
        Clrscope.run(TIMEOUT, "dump-heap", "convert", after().toString(), "-o", written.toString());
    assertThat(r.exitCode()).as("%s", r).isZero();
    assertThat(r.stdout().trim()).isEqualTo(written.toAbsolutePath().toString());

    Path gcdump = Clrscope.root().resolve("../shared/tools/dotnet-gcdump/dotnet-gcdump.dll");
    assertThat(gcdump).as("the shared dotnet-gcdump build").exists();
    String text =
        DotnetTools.run(
            List.of(
                DotnetApps.dotnet().toString(), gcdump.toString(), "report", written.toString()),
            120);
    // "  Object Bytes  Count  Type": objects over 1 KB under pseudo-types "T (Bytes > 1K)" and so
    // on.
    Map<String, Long> theirs = new java.util.TreeMap<>();
    java.util.regex.Pattern row =
        java.util.regex.Pattern.compile("^\\s*[\\d,]+\\s+([\\d,]+)\\s+(\\S.*?)\\s*$");
    for (String line : text.lines().toList()) {
      java.util.regex.Matcher m = row.matcher(line);
      if (m.matches() && !m.group(2).startsWith("GC Heap") && !m.group(2).startsWith("[")) {
        String type = m.group(2).replaceAll(" \\(Bytes > [0-9]+[KM]\\)$", "").replace(", ", ",");
        theirs.merge(type, Long.parseLong(m.group(1).replace(",", "")), Long::sum);
      }
    }
    Map<String, Long> stat = new java.util.TreeMap<>();
    for (JsonNode t : AnalyzeCli.one(AnalyzeCli.core(after()), "dumpheap -stat").get("types")) {
      String type = t.get("type").asText();
      if (!type.equals("Free")) {
        // The runtime's events spell generic arguments without the space dotnet-dump puts after a
        // comma; a .gcdump clrscope writes keeps dotnet-dump's spelling. Compared without it.
        stat.put(type.replace(", ", ","), t.get("count").asLong());
      }
    }
    assertThat(theirs).as(text).isEqualTo(stat);
    assertThat(theirs.get(facts.get("itemType").asText())).isEqualTo(ITEMS);
    assertThat(theirs.get(heapFacts.get("garbageType").asText())).isEqualTo(HEAP_FACTS);
  }

  /** The address of the one object of {@code type} (analyze's dumpheap -short). */
  private static String theOne(List<String> core, String type) {
    JsonNode found = AnalyzeCli.one(core, "dumpheap -short -type " + type);
    assertThat(found.get("objects")).as("%s", found).hasSize(1);
    return found.get("objects").get(0).get("address").asText();
  }

  @Test
  void analyzeRetainedDominatorsAndPathsOfTheItems() {
    List<String> core = AnalyzeCli.core(after());
    String item = facts.get("itemType").asText();
    String array = theOne(core, item + "[]");
    long itemSize = baseSize(after(), item);
    long retained = 24 + 8L * ITEMS + ITEMS * itemSize + itemNameBytes(ITEMS);
    List<JsonNode> docs =
        AnalyzeCli.json(
            core,
            "retained " + array,
            "retained -type " + item,
            "dominators -top 50",
            "paths " + array);

    JsonNode one = docs.get(0);
    assertThat(one.get("retained").asLong()).isEqualTo(retained);
    assertThat(one.get("reachable").asBoolean()).isTrue();
    Map<String, JsonNode> set = AnalyzeCli.byKey(one.get("retainedSet"), "type");
    assertThat(set.keySet()).containsExactlyInAnyOrder(item + "[]", item, "System.String");
    assertThat(set.get(item).get("count").asLong()).isEqualTo(ITEMS);
    assertThat(set.get("System.String").get("count").asLong()).isEqualTo(ITEMS);
    assertThat(set.get("System.String").get("totalSize").asLong()).isEqualTo(itemNameBytes(ITEMS));

    Map<String, JsonNode> types = AnalyzeCli.byKey(docs.get(1).get("types"), "type");
    assertThat(types.get(item).get("count").asLong()).isEqualTo(ITEMS);
    assertThat(types.get(item).get("retainedSize").asLong())
        .isEqualTo(ITEMS * itemSize + itemNameBytes(ITEMS));
    assertThat(types.get(item + "[]").get("retainedSize").asLong()).isEqualTo(retained);

    assertThat(docs.get(2).get("dominators"))
        .anySatisfy(
            d -> {
              assertThat(d.get("address").asText()).isEqualTo(array);
              assertThat(d.get("retained").asLong()).isEqualTo(retained);
            });

    // Shortest first: the static field holds the array itself.
    JsonNode first = docs.get(3).get(0);
    assertThat(first.get("root").asText())
        .isEqualTo(
            "static " + facts.get("holderType").asText() + "." + facts.get("staticField").asText());
    assertThat(first.get("path")).hasSize(1);
    assertThat(first.get("path").get(0).get("address").asText()).isEqualTo(array);
  }

  @Test
  void analyzeDuplicatesFindsTheAppsCopiesAndFillItsOversizedList() {
    List<String> core = AnalyzeCli.core(after());
    String holder = heapFacts.get("holderType").asText();
    Map<String, JsonNode> statics = AnalyzeCommandTest.statics(core, holder);
    long list =
        AnalyzeCli.address(statics.get(heapFacts.get("oversizedField").asText()).get("value"));
    List<JsonNode> docs = AnalyzeCli.json(core, "duplicates -top 1000", "fill -top 1000");

    String value = heapFacts.get("duplicatedValue").asText();
    Map<String, JsonNode> duplicates = AnalyzeCli.byKey(docs.get(0).get("duplicates"), "value");
    // The app's N copies and the literal it copied them from; a string of 21 characters is 22 + 42
    // bytes, and all but one of them are wasted.
    long size = 22 + 2L * value.length();
    assertThat(duplicates.get(value).get("count").asLong()).isEqualTo(HEAP_FACTS + 1);
    assertThat(duplicates.get(value).get("size").asLong()).isEqualTo(size);
    assertThat(duplicates.get(value).get("wastedBytes").asLong()).isEqualTo(HEAP_FACTS * size);

    // The list of capacity 1000 holding 10: 990 empty slots of 8 bytes.
    JsonNode lists =
        AnalyzeCli.byKey(docs.get(1).get("types"), "type")
            .get("System.Collections.Generic.List<System.String>");
    assertThat(AnalyzeCli.address(lists.get("worst"))).isEqualTo(list);
    assertThat(lists.get("worstCapacity").asLong())
        .isEqualTo(heapFacts.get("oversizedCapacity").asLong());
    assertThat(lists.get("worstUsed").asLong()).isEqualTo(heapFacts.get("oversizedCount").asLong());
    assertThat(lists.get("wastedBytes").asLong())
        .isGreaterThanOrEqualTo(
            8
                * (heapFacts.get("oversizedCapacity").asLong()
                    - heapFacts.get("oversizedCount").asLong()));
  }

  @Test
  void dumpheapLiveAndDeadSplitTheHeapByItsRoots() {
    String garbage = heapFacts.get("garbageType").asText();
    List<JsonNode> docs =
        AnalyzeCli.json(
            AnalyzeCli.core(after()),
            "dumpheap -stat -dead",
            "dumpheap -stat -live",
            "dumpheap -stat");
    Map<String, JsonNode> dead = AnalyzeCli.byKey(docs.get(0).get("types"), "type");
    Map<String, JsonNode> live = AnalyzeCli.byKey(docs.get(1).get("types"), "type");
    Map<String, JsonNode> all = AnalyzeCli.byKey(docs.get(2).get("types"), "type");
    // The app's garbage is all dead; what its static holds is all live.
    assertThat(dead.get(garbage).get("count").asLong()).isEqualTo(HEAP_FACTS);
    assertThat(live).doesNotContainKey(garbage);
    assertThat(live.get("TargetApp.FactItem").get("count").asLong()).isEqualTo(ITEMS);
    assertThat(dead).doesNotContainKey("TargetApp.FactItem");
    // Together they are the heap's objects; free space is neither.
    assertThat(live).doesNotContainKey("Free");
    assertThat(dead).doesNotContainKey("Free");
    long free = all.containsKey("Free") ? all.get("Free").get("count").asLong() : 0;
    assertThat(docs.get(0).get("objects").asLong() + docs.get(1).get("objects").asLong())
        .isEqualTo(docs.get(2).get("objects").asLong() - free);
  }

  @Test
  void anElfFileThatIsNoCoreAndACoreCutShortAreOneLineEach() throws Exception {
    Path program = dir.resolve("program.elf");
    java.nio.file.Files.copy(DotnetApps.dotnet().toRealPath(), program);
    CliResult r = Clrscope.run(TIMEOUT, "dump-heap", "report", program.toString());
    assertThat(r.exitCode()).as("%s", r).isEqualTo(1);
    assertThat(r.stdout()).isEmpty();
    assertThat(r.stderr().strip())
        .isEqualTo(
            "clrscope dump-heap report: "
                + program
                + " is an ELF file but not a core dump: give a core dump or a .gcdump file");

    Path cut = dir.resolve("cut.core");
    long half = java.nio.file.Files.size(after()) / 2;
    try (java.nio.channels.FileChannel in = java.nio.channels.FileChannel.open(after());
        java.nio.channels.FileChannel out =
            java.nio.channels.FileChannel.open(
                cut,
                java.nio.file.StandardOpenOption.CREATE_NEW,
                java.nio.file.StandardOpenOption.WRITE)) {
      in.transferTo(0, half, out);
    }
    r =
        Clrscope.run(
            TIMEOUT,
            "dump-heap",
            "convert",
            cut.toString(),
            "-o",
            dir.resolve("cut.gcdump").toString());
    assertThat(r.exitCode()).as("%s", r).isEqualTo(1);
    assertThat(r.stderr().lines()).as("%s", r).hasSize(1);
    assertThat(r.stderr()).startsWith("clrscope dump-heap convert: " + cut + " is cut short");
    assertThat(dir.resolve("cut.gcdump")).doesNotExist();
  }
}
