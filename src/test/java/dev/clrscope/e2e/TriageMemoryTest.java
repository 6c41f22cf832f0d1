package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code clrscope triage}'s memory findings on TriageApp's {@code memory}, live and on a core, each
 * against what the app made and what clrscope's own heap commands say of the same heap: the leak
 * suspect (its retained bytes equal to {@code dump-heap report}'s, the static field that holds it,
 * its accumulation point), the duplicated strings, the empty lists, the LOH's free space, the
 * timers on one callback, the event with 5,000 handlers. Then the HTML report in a real browser,
 * and what grew after {@code grow 2000}: two cores, and a core against the live process.
 */
class TriageMemoryTest {
  @TempDir static Path dir;
  @RegisterExtension static final TriageRun run = TriageRun.of("memory");
  private static TargetProcess app;
  private static JsonNode facts;
  private static Path before;
  private static Path after;
  private static JsonNode liveReport;
  private static Map<String, JsonNode> liveTypes;

  private static final int GROWN = 2000;

  @BeforeAll
  static void start() {
    app = run.app();
    facts = run.facts();
    before = run.core();
    // The app is idle: what the live process holds now is what the core holds.
    liveReport = TriageCli.live(app);
    liveTypes = heapReport("-p", Long.toString(app.ready().pid()), "--exact");
    app.send("grow " + GROWN);
    after = TriageCli.dump(app, dir.resolve("after.core"));
  }

  /** {@code dump-heap report ... --format json}: every type's row, by name. */
  private static Map<String, JsonNode> heapReport(String... target) {
    List<String> args = new java.util.ArrayList<>(List.of("dump-heap", "report"));
    args.addAll(List.of(target));
    args.addAll(List.of("--top", "0", "--format", "json"));
    CliResult r = Clrscope.run(TriageCli.TIMEOUT, args.toArray(String[]::new));
    assertThat(r.exitCode()).as("%s", r).isZero();
    Map<String, JsonNode> types = new HashMap<>();
    r.stdoutJson().get("types").forEach(t -> types.put(t.get("type").asText(), t));
    return types;
  }

  private static JsonNode report(String source) {
    return source.equals("live") ? liveReport : TriageCli.json(before.toString());
  }

  @ParameterizedTest
  @ValueSource(strings = {"live", "core"})
  void theFindingsInOrder(String source) {
    assertThat(TriageCli.kinds(report(source)))
        .containsExactly(
            "leak-suspect",
            "duplicate-strings",
            "empty-collections",
            "loh-free-space",
            "invocation-list",
            "timers");
  }

  @ParameterizedTest
  @ValueSource(strings = {"live", "core"})
  void theLeakSuspectRetainsWhatDumpHeapReportSaysHeldByItsStaticField(String source) {
    JsonNode f = TriageCli.finding(report(source), "leak-suspect");
    Map<String, JsonNode> types = source.equals("live") ? liveTypes : heapReport(before.toString());
    String cache = facts.get("cacheType").asText();
    long retained = types.get(cache).get("retainedSize").asLong();
    assertThat(types.get(cache).get("count").asInt()).isEqualTo(1);
    assertThat(TriageCli.fact(f, "retained bytes").asLong()).isEqualTo(retained);
    JsonNode suspect = f.get("evidence").get("objects").get(0);
    assertThat(suspect.get("type").asText()).isEqualTo(cache);
    assertThat(suspect.get("retained").asLong()).isEqualTo(retained);
    assertThat(suspect.get("role").asText()).isEqualTo("suspect");
    String root = "static field " + facts.get("cacheField").asText();
    assertThat(TriageCli.fact(f, "root").asText()).isEqualTo(root);
    JsonNode point = f.get("evidence").get("objects").get(1);
    assertThat(point.get("type").asText()).isEqualTo(cache + "+Entry[]");
    assertThat(point.get("role").asText())
        .startsWith("accumulation point: holds 20,000 " + facts.get("sessionType").asText());
    assertThat(TriageCli.fact(f, "accumulated: " + facts.get("sessionType").asText()).asInt())
        .isEqualTo(facts.get("sessions").asInt());
    assertThat(f.get("title").asText())
        .startsWith(cache + " " + suspect.get("address").asText() + " retains ")
        .contains(String.format(java.util.Locale.ROOT, "retains %,d bytes (", retained))
        .contains("held by " + root)
        .endsWith("; most of it is 20,000 TriageApp.Session in its " + cache + "+Entry[].");
  }

  @ParameterizedTest
  @ValueSource(strings = {"live", "core"})
  void duplicatedStringsEmptyListsTimersAndTheLongInvocationList(String source) {
    JsonNode report = report(source);
    JsonNode dup = TriageCli.finding(report, "duplicate-strings");
    assertThat(TriageCli.fact(dup, "copies").asInt()).isEqualTo(facts.get("labelCopies").asInt());
    assertThat(TriageCli.fact(dup, "value").asText()).isEqualTo(facts.get("labelValue").asText());
    JsonNode lists = TriageCli.finding(report, "empty-collections");
    assertThat(lists.get("evidence").get("objects").get(0).get("type").asText())
        .isEqualTo("System.Collections.Generic.List<System.String>");
    int count = facts.get("emptyLists").asInt();
    int capacity = facts.get("listCapacity").asInt();
    assertThat(TriageCli.fact(lists, "collections").asInt()).isEqualTo(count);
    assertThat(TriageCli.fact(lists, "slots").asLong()).isEqualTo((long) count * capacity);
    assertThat(TriageCli.fact(lists, "slots used").asInt()).isEqualTo(count);
    assertThat(TriageCli.fact(lists, "unused bytes").asLong())
        .isEqualTo((long) count * (capacity - 1) * 8);
    JsonNode timers = TriageCli.finding(report, "timers");
    assertThat(TriageCli.fact(timers, "timers").asInt()).isEqualTo(facts.get("timers").asInt());
    assertThat(TriageCli.fact(timers, "callback").asText())
        .isEqualTo(facts.get("timerCallback").asText());
    JsonNode handlers = TriageCli.finding(report, "invocation-list");
    assertThat(TriageCli.fact(handlers, "methods called").asInt())
        .isEqualTo(facts.get("subscribers").asInt());
    assertThat(TriageCli.fact(handlers, "first method").asText())
        .isEqualTo(facts.get("handlerMethod").asText());
    assertThat(TriageCli.fact(handlers, "root").asText())
        .isEqualTo("static field " + facts.get("eventField").asText());
    assertThat(handlers.get("evidence").get("objects").get(0).get("type").asText())
        .isEqualTo("System.EventHandler");
  }

  @Test
  void wasteAsAnalyzeCountsIt() {
    JsonNode report = report("core");
    List<JsonNode> docs =
        AnalyzeCli.json(AnalyzeCli.core(before), "duplicates -top 1", "dumpgen loh -stat");
    JsonNode top = docs.get(0).get("duplicates").get(0);
    JsonNode dup = TriageCli.finding(report, "duplicate-strings");
    assertThat(TriageCli.fact(dup, "wasted bytes").asLong())
        .isEqualTo(top.get("wastedBytes").asLong());
    assertThat(dup.get("evidence").get("objects").get(0).get("size").asLong())
        .isEqualTo(top.get("size").asLong());
    long free = 0;
    long total = 0;
    for (JsonNode t : docs.get(1).get("types")) {
      total += t.get("totalSize").asLong();
      if (t.get("type").asText().equals("Free")) {
        free = t.get("totalSize").asLong();
      }
    }
    JsonNode loh = TriageCli.finding(report, "loh-free-space");
    assertThat(TriageCli.fact(loh, "free bytes").asLong()).isEqualTo(free);
    assertThat(TriageCli.fact(loh, "large object heap bytes").asLong()).isEqualTo(total);
    // The kept buffers' share of the LOH is small: most of it is the dropped ones' space.
    assertThat(free)
        .isGreaterThan(
            (long)
                (facts.get("largeBufferBytes").asLong()
                    * 0.75
                    * (33 - facts.get("largeBuffersKept").asInt())));
  }

  @Test
  void theHtmlReportRendersInABrowserWithItsFindingsAndThePictureOfTheHeap() throws Exception {
    Path html = dir.resolve("report.html");
    CliResult r = TriageCli.run(before.toString(), "--html", html.toString(), "--format", "json");
    assertThat(r.exitCode()).as("%s", r).isZero();
    JsonNode report = r.stdoutJson();
    HeadlessChromium.Rendered page = HeadlessChromium.render(html, dir);
    for (JsonNode f : report.get("findings")) {
      String title =
          f.get("title").asText().replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
      assertThat(page.dom()).as("the title of %s", f.get("kind")).contains(title);
    }
    // The stacks are folded (no finding here has one); the treemap was drawn by the script: a
    // cell for the suspect, the picture said so on the console, and no script error.
    JsonNode suspect =
        TriageCli.finding(report, "leak-suspect").get("evidence").get("objects").get(0);
    assertThat(page.dom()).contains("data-address=\"" + suspect.get("address").asText() + "\"");
    assertThat(page.console())
        .anySatisfy(l -> assertThat(l).contains("clrscope triage: heap picture drawn"));
    assertThat(page.console()).noneMatch(l -> l.contains("Uncaught") || l.contains("Error"));
    assertThat(page.log()).doesNotContain("ERROR:CONSOLE");
    // Nothing to fetch: no element names a source, no style a URL.
    assertThat(page.dom())
        .doesNotContain("src=\"")
        .doesNotContain("href=\"")
        .doesNotContain("url(")
        .doesNotContain("<link");
  }

  @Test
  void whatGrewBetweenTwoCoresByRetainedSize() {
    Map<String, JsonNode> was = heapReport(before.toString());
    Map<String, JsonNode> is = heapReport(after.toString());
    JsonNode report = TriageCli.json(before.toString(), after.toString());
    assertThat(report.get("earlier").asText()).isEqualTo(before.toString());
    String cache = facts.get("cacheType").asText();
    String session = facts.get("sessionType").asText();
    Map<String, JsonNode> grown = new HashMap<>();
    report.get("grown").forEach(g -> grown.put(g.get("type").asText(), g));
    long cacheGrowth =
        is.get(cache).get("retainedSize").asLong() - was.get(cache).get("retainedSize").asLong();
    long sessionGrowth =
        is.get(session).get("retainedSize").asLong()
            - was.get(session).get("retainedSize").asLong();
    assertThat(grown.get(cache).get("retainedDelta").asLong()).isEqualTo(cacheGrowth);
    assertThat(grown.get(cache).get("countDelta").asLong()).isZero();
    assertThat(grown.get(session).get("countDelta").asLong()).isEqualTo(GROWN);
    assertThat(grown.get(session).get("retainedDelta").asLong()).isEqualTo(sessionGrowth);
    // The dictionary had room for 2,000 more (its capacity is 23,339): it retains just the new
    // sessions more, as much as the sessions grew; of the two, the sessions' own bytes grew.
    assertThat(cacheGrowth).isEqualTo(sessionGrowth);
    assertThat(report.get("grown").get(0).get("type").asText()).isEqualTo(session);
    assertThat(report.get("grown").get(1).get("type").asText()).isEqualTo(cache);
    JsonNode f = TriageCli.finding(report, "memory-growth");
    assertThat(f.get("title").asText())
        .contains(
            String.format(
                java.util.Locale.ROOT,
                "what %s retains grew most: +%,d bytes, +%,d objects.",
                session,
                sessionGrowth,
                GROWN));
  }

  @Test
  void whatGrewBetweenACoreAndTheLiveProcess() {
    JsonNode report =
        TriageCli.json(before.toString(), "-p", Long.toString(app.ready().pid()), "--no-watch");
    Map<String, JsonNode> grown = new HashMap<>();
    report.get("grown").forEach(g -> grown.put(g.get("type").asText(), g));
    assertThat(grown.get(facts.get("sessionType").asText()).get("countDelta").asLong())
        .isEqualTo(GROWN);
    assertThat(TriageCli.findings(report, "memory-growth")).hasSize(1);
  }
}
