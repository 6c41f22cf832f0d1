package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import dev.clrscope.cli.ClrscopeCommand;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * Every data command with every format it offers, against a live TargetApp and against saved files:
 * JSON is one document Jackson reads, JSON Lines a document a line, CSV one table of one width
 * under a header, and a launched app's own output never among clrscope's data.
 */
class OutputFormatSweepTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(90);
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * The commands whose {@code --format} names a file format, not how data is printed:
   * dotnet-trace's option, kept as it spells it.
   */
  private static final List<String> FILE_FORMATS = List.of("trace collect", "trace convert");

  private static final Path MONITOR_TRACES =
      Clrscope.root().resolve("monitor/src/test/resources/dev/clrscope/monitor");
  private static final Path GCDUMP =
      Clrscope.root().resolveSibling("shared").resolve("fixtures/gcdump/widget.gcdump");
  private static final Path SAMPLES =
      Clrscope.root()
          .resolveSibling("shared")
          .resolve("fixtures/pyroscope/dotnet-5.0-SampleProfiler-single-thread.nettrace");

  private static TargetProcess target;

  /** The app analyze reads (paused by each run: apart from the one the monitors watch). */
  private static TargetProcess analyzed;

  /** What analyze's recipes name, by placeholder: addresses and ids in {@link #analyzed}. */
  private static final Map<String, String> PLACES = new LinkedHashMap<>();

  @BeforeAll
  static void start() {
    target = TargetProcess.start(DotnetApps.TARGET_APP);
    target.send("hold Widget 100");
    analyzed = DacLiveProcessTest.startUnwaited(List.of());
    analyzed.send("facts 100");
    analyzed.send("triage-facts");
    List<String> pid = AnalyzeCli.pid(analyzed.ready().pid());
    List<JsonNode> found =
        AnalyzeCli.json(
            pid,
            "dumpheap -short -type TargetApp.FactItem[]",
            "name2ee TargetApp.DumpFacts",
            "name2ee TargetApp.TriageFacts");
    String array = found.get(0).get("objects").get(0).get("address").asText();
    Map<String, JsonNode> facts =
        AnalyzeCli.byKey(
            AnalyzeCli.one(pid, "dumpmt " + found.get(1).get("methodTable").asText()).get("fields"),
            "name");
    Map<String, JsonNode> triage =
        AnalyzeCli.byKey(
            AnalyzeCli.one(pid, "dumpmt " + found.get(2).get("methodTable").asText()).get("fields"),
            "name");
    JsonNode item = AnalyzeCli.one(pid, "dumparray -length 1 " + array).get("elements").get(0);
    PLACES.put("APID", Long.toString(analyzed.ready().pid()));
    PLACES.put("ARRAY", array);
    PLACES.put("ITEM", item.get("value").asText());
    PLACES.put("MT", found.get(1).get("methodTable").asText());
    PLACES.put("EXCEPTION", facts.get("Stored").get("value").asText());
    PLACES.put("QUEUE", triage.get("Queue").get("value").asText());
    PLACES.put("DICT", triage.get("Dictionary").get("value").asText());
    PLACES.put("TASK", triage.get("Pending").get("value").asText());
  }

  @AfterAll
  static void stop() {
    if (target != null) {
      target.close();
    }
    if (analyzed != null) {
      analyzed.close();
    }
  }

  /** Analyze's commands, each run on its own so that each format's output is one result. */
  private static final List<String> ANALYZE_COMMANDS =
      List.of(
          "dumpheap -stat",
          "dumpheap -type TargetApp.FactItem[]",
          "dumpheap -short -type TargetApp.FactItem[]",
          "dumpheap -strings -min 40 -max 42",
          "dumpobj ITEM",
          "dumparray -length 3 ARRAY",
          "dumpmt MT",
          "name2ee TargetApp.DumpFacts",
          "objsize ARRAY",
          "gcroot ITEM",
          "paths ITEM",
          "retained ARRAY",
          "retained -type TargetApp.FactItem",
          "dominators -top 5",
          "duplicates",
          "fill",
          "gcwhere ITEM",
          "eeheap -gc",
          "dumpgen 0 -stat",
          "threads",
          "setthread",
          "clrstack -all",
          "pstacks",
          "pe EXCEPTION",
          "finalizequeue -allready",
          "syncblk",
          "dumpasync",
          "timerinfo",
          "threadpoolqueue",
          "taskstate TASK",
          "dumpconcurrentqueue QUEUE",
          "dumpconcurrentdictionary DICT",
          "help");

  /** A recipe's word with the target's pid, and for analyze its placeholders, filled in. */
  private static String fill(String command, String word) {
    String w = word.equals("PID") ? Long.toString(target.pid()) : word;
    if (command.equals("analyze") || command.equals("triage")) {
      for (Map.Entry<String, String> e : PLACES.entrySet()) {
        w = w.replace(e.getKey(), e.getValue());
      }
    }
    return w;
  }

  private static String trace(String name) {
    return MONITOR_TRACES.resolve(name).toString();
  }

  /**
   * How each command that prints data is run: live on the TargetApp ({@code PID}), and on a saved
   * file where it reads one. Every command with a {@code --format} must be here.
   */
  private static Map<String, List<List<String>>> recipes() {
    Map<String, List<List<String>>> r = new LinkedHashMap<>();
    r.put("ps", List.of(List.of()));
    r.put("info", List.of(List.of("-p", "PID")));
    r.put("env", List.of(List.of("-p", "PID")));
    r.put("counters list", List.of(List.of(), List.of("-p", "PID", "--duration", "1s")));
    r.put(
        "counters collect",
        List.of(List.of("-p", "PID", "--duration", "2s", "--refresh-interval", "1")));
    r.put(
        "counters monitor",
        List.of(List.of("-p", "PID", "--duration", "2s", "--refresh-interval", "1")));
    r.put(
        "gcstats",
        List.of(
            List.of("-p", "PID", "--duration", "1s"),
            List.of(trace("gc/net10-induced-gcs.nettrace"))));
    r.put("fullgc", List.of(List.of("-p", "PID")));
    String saved = trace("contention/net10-fail-contend-wait.nettrace");
    r.put(
        "exceptions",
        List.of(List.of("-p", "PID", "--duration", "1s"), List.of(saved, "--stacks")));
    r.put(
        "contention",
        List.of(List.of("-p", "PID", "--duration", "1s"), List.of(saved, "--stacks")));
    r.put(
        "http",
        List.of(
            List.of("-p", "PID", "--duration", "1s"), List.of(trace("http/net10-http.nettrace"))));
    r.put("startup", List.of(List.of(trace("startup/net10-startup.nettrace"))));
    r.put(
        "alloc",
        List.of(
            List.of("-p", "PID", "--duration", "1s"),
            List.of(trace("alloc/net10-allocate-20000-3.nettrace"))));
    r.put("dump-heap", List.of(List.of("-p", "PID"), List.of(GCDUMP.toString())));
    r.put("dump-heap report", List.of(List.of(GCDUMP.toString())));
    r.put(
        "dump-heap roots",
        List.of(
            List.of("-p", "PID", "--type", "Widget"),
            List.of(GCDUMP.toString(), "--type", "Widget")));
    r.put("dump-heap dominators", List.of(List.of("-p", "PID"), List.of(GCDUMP.toString())));
    r.put(
        "dump-heap diff",
        List.of(
            List.of("--before", GCDUMP.toString(), "-p", "PID"),
            List.of("--before", GCDUMP.toString(), GCDUMP.toString())));
    r.put("trace list-profiles", List.of(List.of()));
    r.put("trace stats", List.of(List.of(SAMPLES.toString())));
    r.put("trace events", List.of(List.of(saved)));
    r.put("trace report topN", List.of(List.of(SAMPLES.toString())));
    List<List<String>> analyze = new ArrayList<>();
    for (String c : ANALYZE_COMMANDS) {
      analyze.add(List.of("-p", "APID", "-c", c, "--symbol-server", "none"));
    }
    r.put("analyze", analyze);
    r.put("stack", List.of(List.of("-p", "PID")));
    r.put("triage", List.of(List.of("-p", "APID", "--duration", "1s", "--symbol-server", "none")));
    return r;
  }

  /** Every command of the CLI with a {@code --format}, and the formats it offers. */
  private static Map<String, List<String>> formatsOffered() {
    Map<String, List<String>> offered = new LinkedHashMap<>();
    collect(ClrscopeCommand.fullCommandLine(), "", offered, new IdentityHashMap<>());
    return offered;
  }

  private static void collect(
      CommandLine cl,
      String path,
      Map<String, List<String>> offered,
      IdentityHashMap<Object, Boolean> seen) {
    if (seen.put(cl.getCommandSpec(), true) != null) {
      return;
    }
    OptionSpec format = cl.getCommandSpec().findOption("--format");
    if (format != null && !path.isEmpty()) {
      List<String> formats = new ArrayList<>();
      if (format.completionCandidates() != null) {
        format.completionCandidates().forEach(formats::add);
      }
      offered.put(path, formats);
    }
    cl.getSubcommands()
        .forEach(
            (name, sub) -> {
              if (sub.getCommandSpec().name().equals(name)) {
                collect(sub, path.isEmpty() ? name : path + " " + name, offered, seen);
              }
            });
  }

  @Test
  void everyCommandThatPrintsDataIsSwept() {
    TreeSet<String> missing = new TreeSet<>(formatsOffered().keySet());
    missing.removeAll(recipes().keySet());
    missing.removeAll(FILE_FORMATS);
    assertThat(missing).as("commands with --format that the sweep does not run").isEmpty();
  }

  static Stream<Arguments> runs() {
    Map<String, List<String>> offered = formatsOffered();
    List<Arguments> runs = new ArrayList<>();
    recipes()
        .forEach(
            (command, recipes) -> {
              for (List<String> recipe : recipes) {
                for (String format : offered.get(command)) {
                  runs.add(Arguments.of(command, recipe, format));
                }
              }
            });
    return runs.stream();
  }

  @ParameterizedTest(name = "{0} {1} --format {2}")
  @MethodSource("runs")
  void eachFormatParses(String command, List<String> recipe, String format) throws Exception {
    List<String> args = new ArrayList<>(List.of(command.split(" ")));
    for (String a : recipe) {
      args.add(fill(command, a));
    }
    args.addAll(List.of("--format", format));
    CliResult r = Clrscope.run(TIMEOUT, args.toArray(String[]::new));
    assertThat(r.exitCode()).as("%s", r).isZero();
    assertParses(format, r);
  }

  /** A launched app that writes to its stdout leaves clrscope's stdout to clrscope's data. */
  @ParameterizedTest(name = "gcstats --format {0} -- TargetApp")
  @MethodSource("streamFormats")
  void aLaunchedAppsOutputStaysOutOfTheData(String format) throws Exception {
    List<String> args = new ArrayList<>(List.of("gcstats", "--format", format, "--"));
    args.addAll(DotnetApps.command(DotnetApps.TARGET_APP, "--no-stdin", "--exit-after-ms", "1500"));
    CliResult r = Clrscope.run(TIMEOUT, args.toArray(String[]::new));
    assertThat(r.exitCode()).as("%s", r).isZero();
    assertThat(r.stdout()).doesNotContain("\"event\":\"ready\"");
    assertThat(r.stderr()).contains("\"event\":\"ready\"");
    assertParses(format, r);
  }

  static Stream<String> streamFormats() {
    return Stream.of("json", "jsonl", "csv");
  }

  private static void assertParses(String format, CliResult r) throws Exception {
    String out = r.stdout();
    switch (format) {
      case "json" -> {
        JsonNode doc = JSON.readTree(out);
        assertThat(doc).as("%s", r).isNotNull();
        assertThat(doc.isContainerNode()).as("%s", r).isTrue();
      }
      case "jsonl" -> {
        for (String line : out.lines().toList()) {
          assertThat(JSON.readTree(line).isObject()).as("%s", line).isTrue();
        }
      }
      case "csv" -> {
        CsvMapper csv = new CsvMapper();
        csv.enable(CsvParser.Feature.FAIL_ON_MISSING_COLUMNS);
        try (MappingIterator<Map<String, String>> rows =
            csv.readerFor(Map.class).with(csv.schemaWithHeader()).readValues(out)) {
          List<Map<String, String>> all = rows.readAll();
          assertThat(all).as("%s", r).allSatisfy(row -> assertThat(row).isNotEmpty());
        }
        assertThat(out).as("a header: %s", r).isNotBlank();
      }
      default -> assertThat(r.stderr()).as("%s", r).doesNotContain("Exception");
    }
  }

  /** A format a command does not offer is a usage error, never accepted and ignored. */
  @Test
  void aFormatNotOfferedIsAUsageError() {
    CliResult jsonl =
        Clrscope.run(TIMEOUT, "dump-heap", "report", GCDUMP.toString(), "--format", "jsonl");
    assertThat(jsonl.exitCode()).as("%s", jsonl).isEqualTo(2);
    assertThat(jsonl.stderr()).contains("jsonl is not offered here");
    CliResult table = Clrscope.run(TIMEOUT, "counters", "collect", "-p", "1", "--format", "table");
    assertThat(table.exitCode()).as("%s", table).isEqualTo(2);
  }
}
