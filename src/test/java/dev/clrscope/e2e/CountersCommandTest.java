package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code clrscope counters} against CountersApp, whose Meter and EventSource publish known values
 * (src/test/dotnet/CountersApp/Program.cs): the values must come back exactly.
 */
class CountersCommandTest {
  private static final String APP = "CountersApp";
  private static final String DEMO = "Clrscope.Demo,Clrscope-Demo";
  private static final Duration RUN = Duration.ofSeconds(90);

  private static TargetProcess app(String... args) {
    return TargetProcess.start(APP, List.of(args), Map.of());
  }

  /** CSV rows grouped by counter name: name → values in order. */
  private static Map<String, List<Double>> csvValues(List<String> lines) {
    Map<String, List<Double>> byName = new LinkedHashMap<>();
    for (String line : lines.subList(1, lines.size())) {
      // No field of CountersApp's counters holds a comma, so a plain split is exact here.
      String[] f = line.split(",", -1);
      assertThat(f).as(line).hasSize(5);
      byName
          .computeIfAbsent(f[1] + "|" + f[2] + "|" + f[3], k -> new ArrayList<>())
          .add(Double.parseDouble(f[4]));
    }
    return byName;
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    sorted.sort(Double::compare);
    return sorted.get(sorted.size() / 2);
  }

  @Test
  void collectCsvReportsExactRatesValuesAndPercentiles() {
    try (TargetProcess app = app("--no-stdin")) {
      Instant before = Instant.now();
      CliResult r =
          Clrscope.run(
              RUN,
              "counters",
              "collect",
              "-p",
              Long.toString(app.pid()),
              "--counters",
              DEMO,
              "--duration",
              "5s");
      Instant after = Instant.now();
      assertThat(r.exitCode()).as("%s", r).isZero();
      List<String> lines = r.stdoutLines();
      assertThat(lines.get(0))
          .isEqualTo("Timestamp,Provider,Counter Name,Counter Type,Mean/Increment");
      Map<String, List<Double>> v = csvValues(lines);

      List<Double> routeA =
          v.get("Clrscope.Demo|clrscope.demo.requests ({request} / 1 sec)[route=/a]|Rate");
      assertThat(routeA).as("%s", r).hasSizeGreaterThanOrEqualTo(3);
      // 7 every 100 ms: 70 a second; an interval may catch one tick more or less.
      assertThat(median(routeA)).isEqualTo(70.0);
      assertThat(routeA).allMatch(x -> x == 63 || x == 70 || x == 77);
      assertThat(
              median(
                  v.get("Clrscope.Demo|clrscope.demo.requests ({request} / 1 sec)[route=/b]|Rate")))
          .isEqualTo(30.0);
      // Observable: +10 per observation, whatever the interval's length.
      assertThat(v.get("Clrscope.Demo|clrscope.demo.ticks ({tick} / 1 sec)|Rate"))
          .containsOnly(10.0);
      assertThat(v.get("Clrscope.Demo|clrscope.demo.queue.length ({item})|Metric"))
          .containsOnly(42.0);
      assertThat(v.get("Clrscope.Demo|clrscope.demo.temperature (Cel)[room=lab]|Metric"))
          .containsOnly(21.5);
      assertThat(v.get("Clrscope.Demo|clrscope.demo.latency (ms)[route=/a;Percentile=50]|Metric"))
          .containsOnly(8.0);
      assertThat(v.get("Clrscope.Demo|clrscope.demo.latency (ms)[route=/a;Percentile=95]|Metric"))
          .containsOnly(16.0);
      assertThat(v.get("Clrscope.Demo|clrscope.demo.latency (ms)[route=/a;Percentile=99]|Metric"))
          .containsOnly(64.0);
      // The up-down counter's level grows by 10 a second.
      List<Double> level = v.get("Clrscope.Demo|clrscope.demo.connections ({connection})|Metric");
      List<Double> steps = new ArrayList<>();
      for (int i = 1; i < level.size(); i++) {
        steps.add(level.get(i) - level.get(i - 1));
      }
      assertThat(median(steps)).isEqualTo(10.0);
      // EventCounters.
      assertThat(v.get("Clrscope-Demo|Request Latency (ms)|Metric")).containsOnly(20.0);
      assertThat(v.get("Clrscope-Demo|Cache Size (MB)|Metric")).containsOnly(123.5);
      assertThat(v.get("Clrscope-Demo|Polls (Count / 1 sec)|Rate")).containsOnly(10.0);
      assertThat(median(v.get("Clrscope-Demo|Requests (Count / 1 sec)|Rate"))).isEqualTo(40.0);
      // Timestamps are the events' own, in UTC, within the run.
      for (String line : lines.subList(1, lines.size())) {
        Instant t = Instant.parse(line.substring(0, line.indexOf(',')));
        assertThat(t).isBetween(before.minusSeconds(2), after.plusSeconds(2));
      }
      assertThat(r.stderr()).doesNotContain("never published");
    }
  }

  @Test
  void collectFailsWhenTheTargetRefusesTheMetricsSession() {
    // .NET 8+ shares one metrics session between tools; a second tool with another refresh
    // interval is refused by the target, which says so in a MultipleSessionsConfiguredIncorrectly
    // event. dotnet-counters fails then; so must clrscope, not exit 0 with no records.
    try (TargetProcess app = app("--no-stdin");
        RunningCli first =
            Clrscope.start(
                Map.of(),
                null,
                "counters",
                "collect",
                "-p",
                Long.toString(app.pid()),
                "--counters",
                "Clrscope.Demo",
                "--refresh-interval",
                "1")) {
      first.awaitLine(l -> l.contains("clrscope.demo"), RUN);
      CliResult second =
          Clrscope.run(
              RUN,
              "counters",
              "collect",
              "-p",
              Long.toString(app.pid()),
              "--counters",
              "Clrscope.Demo",
              "--refresh-interval",
              "2",
              "--duration",
              "30s");
      assertThat(second.exitCode()).as("%s", second).isEqualTo(1);
      assertThat(second.stderr())
          .as("%s", second)
          .contains("clrscope counters collect: the target refused the metrics session:")
          .contains("(refresh interval 1 there, 2 asked)");
      // The first session is untouched and still receives values.
      first.awaitLine(l -> l.contains("clrscope.demo"), RUN);
    }
  }

  /** {@code counters collect} of {@code counters} into {@code file} for 4 s. */
  private static CliResult collectFor4s(
      TargetProcess app, String counters, String format, Path file) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "counters",
                "collect",
                "-p",
                Long.toString(app.pid()),
                "--counters",
                counters,
                "-o",
                file.toString(),
                "--duration",
                "4s"));
    // clrscope's whole measurements are the full layout of the json format.
    args.addAll(
        format.equals("json-full")
            ? List.of("--format", "json", "--layout", "full")
            : List.of("--format", format));
    return Clrscope.run(RUN, args.toArray(String[]::new));
  }

  @Test
  void collectJsonIsDotnetCountersLayout(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("counters.json");
    try (TargetProcess app = app("--no-stdin")) {
      CliResult r =
          collectFor4s(
              app, "Clrscope.Demo[clrscope.demo.latency,clrscope.demo.requests]", "json", file);
      assertThat(r.exitCode()).as("%s", r).isZero();
      JsonNode doc = TargetProcess.JSON.readTree(Files.readString(file));
      // dotnet-counters' document: exactly these members, its events' exactly these keys.
      assertThat(doc.fieldNames())
          .toIterable()
          .containsExactly("TargetProcess", "StartTime", "Events");
      assertThat(doc.path("TargetProcess").asText()).isEqualTo("dotnet");
      assertThat(doc.path("StartTime").asText())
          .matches("\\d\\d/\\d\\d/\\d{4} \\d\\d:\\d\\d:\\d\\d");
      Map<String, List<Double>> byName = new TreeMap<>();
      for (JsonNode e : doc.path("Events")) {
        assertThat(e.fieldNames())
            .toIterable()
            .containsExactly("timestamp", "provider", "name", "tags", "counterType", "value");
        assertThat(e.path("timestamp").asText())
            .matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\dZ");
        assertThat(e.path("provider").asText()).isEqualTo("Clrscope.Demo");
        byName
            .computeIfAbsent(
                e.path("name").asText()
                    + "|"
                    + e.path("tags").asText()
                    + "|"
                    + e.path("counterType").asText(),
                k -> new ArrayList<>())
            .add(e.path("value").asDouble());
      }
      assertThat(byName.get("clrscope.demo.latency (ms)|route=/a;Percentile=50|Metric"))
          .isNotEmpty()
          .containsOnly(8.0);
      assertThat(byName.get("clrscope.demo.latency (ms)|route=/a;Percentile=99|Metric"))
          .containsOnly(64.0);
      assertThat(median(byName.get("clrscope.demo.requests ({request} / 1 sec)|route=/a|Rate")))
          .isEqualTo(70.0);
    }
  }

  @Test
  void collectJsonFullIsOneValidDocumentWithTagsAndPercentiles(@TempDir Path dir)
      throws IOException {
    Path file = dir.resolve("counters.json");
    try (TargetProcess app = app("--no-stdin")) {
      CliResult r =
          collectFor4s(
              app,
              "Clrscope.Demo[clrscope.demo.latency,clrscope.demo.requests,no.such],Clrscope-Demo",
              "json-full",
              file);
      assertThat(r.exitCode()).as("%s", r).isZero();
      JsonNode doc = TargetProcess.JSON.readTree(Files.readString(file));
      assertThat(doc.path("summary").path("stopReason").asText()).contains("duration");
      assertThat(doc.path("summary").path("notes").toString()).contains("Clrscope.Demo[no.such]");
      int histograms = 0;
      int requests = 0;
      for (JsonNode m : doc.path("measurements")) {
        Instant.parse(m.path("timestamp").asText());
        String name = m.path("name").asText();
        assertThat(name).isNotIn("clrscope.demo.ticks", "clrscope.demo.queue.length");
        if (name.equals("clrscope.demo.latency")) {
          histograms++;
          assertThat(m.path("type").asText()).isEqualTo("histogram");
          assertThat(m.path("unit").asText()).isEqualTo("ms");
          assertThat(m.path("tags").path("route").asText()).isEqualTo("/a");
          assertThat(m.path("percentiles").path("p50").asDouble()).isEqualTo(8.0);
          assertThat(m.path("percentiles").path("p95").asDouble()).isEqualTo(16.0);
          assertThat(m.path("percentiles").path("p99").asDouble()).isEqualTo(64.0);
          // 100 values a tick, 10 ticks an interval (give or take one tick).
          assertThat(m.path("count").asLong()).isBetween(900L, 1100L);
          assertThat(m.path("sum").asDouble() / m.path("count").asLong()).isEqualTo(13.12);
        }
        if (name.equals("clrscope.demo.requests")) {
          requests++;
          assertThat(m.path("source").asText()).isEqualTo("meter");
          assertThat(m.path("tags").path("route").asText()).isIn("/a", "/b");
        }
        if (name.equals("request-latency")) {
          assertThat(m.path("value").asDouble()).isEqualTo(20.0);
          assertThat(m.path("min").asDouble()).isEqualTo(10.0);
          assertThat(m.path("max").asDouble()).isEqualTo(30.0);
          assertThat(m.path("source").asText()).isEqualTo("eventcounters");
        }
      }
      assertThat(histograms).as("%s", doc).isGreaterThanOrEqualTo(2);
      assertThat(requests).isGreaterThanOrEqualTo(4);
      assertThat(r.stderr()).contains("Clrscope.Demo[no.such]").contains("never published");
    }
  }

  @Test
  void systemRuntimeGcCountersRiseWhenTheTargetAllocates() throws Exception {
    // 2000 KB of garbage a tick: about 20 MB a second.
    try (TargetProcess app = app("--churn-kb-per-tick", "2000");
        RunningCli cli =
            Clrscope.start(
                Map.of(),
                Clrscope.root(),
                "counters",
                "collect",
                "-p",
                Long.toString(app.pid()),
                "--format",
                "jsonl",
                "--duration",
                "7s")) {
      // Held once the collection has reported a few intervals of the app churning alone.
      org.awaitility.Awaitility.await()
          .atMost(RUN)
          .until(
              () -> cli.stdout().lines().filter(l -> l.contains("total_allocated")).count() >= 2);
      JsonNode held = app.send("hold-mb 64");
      assertThat(held.path("totalMb").asInt()).isEqualTo(64);
      CliResult r = cli.await(RUN);
      assertThat(r.exitCode()).as("%s", r).isZero();
      double maxAllocRate = 0;
      // Heap size per interval: the sum over generations of the last GC's sizes.
      Map<String, Double> heapByTime = new TreeMap<>();
      List<String> lines = r.stdoutLines();
      // The stream ends with its summary, as every JSON Lines stream does.
      assertThat(TargetProcess.JSON.readTree(lines.get(lines.size() - 1)).path("kind").asText())
          .isEqualTo("summary");
      for (String line : lines.subList(0, lines.size() - 1)) {
        JsonNode m = TargetProcess.JSON.readTree(line);
        assertThat(m.path("provider").asText()).isEqualTo("System.Runtime");
        String name = m.path("name").asText();
        if (name.equals("dotnet.gc.heap.total_allocated") && m.has("rate")) {
          maxAllocRate = Math.max(maxAllocRate, m.path("rate").asDouble());
        }
        if (name.equals("dotnet.gc.last_collection.heap.size")) {
          // The generations of one interval share the second of their timestamp.
          heapByTime.merge(
              m.path("timestamp").asText().substring(0, 19),
              m.path("value").asDouble(),
              Double::sum);
        }
      }
      assertThat(maxAllocRate).as("%s", r).isGreaterThan(10e6);
      List<Double> heap = new ArrayList<>(heapByTime.values());
      assertThat(heap).as("%s", heapByTime).hasSizeGreaterThanOrEqualTo(3);
      assertThat(heap.get(heap.size() - 1) - heap.get(0)).isGreaterThan(60e6);
    }
  }

  @Test
  void monitorRedirectedPrintsPlainTimestampedBlocks() {
    try (TargetProcess app = app("--no-stdin")) {
      CliResult r =
          Clrscope.run(
              RUN,
              "counters",
              "monitor",
              "-p",
              Long.toString(app.pid()),
              "--counters",
              "Clrscope.Demo,System.Runtime[dotnet.gc.heap.total_allocated,no.such]",
              "--duration",
              "4s",
              "--show-deltas");
      assertThat(r.exitCode()).as("%s", r).isZero();
      assertThat(r.stdout()).doesNotContain("\u001b");
      assertThat(r.stdout()).contains("[Clrscope.Demo] Meter").contains("[System.Runtime] Meter");
      assertThat(r.stdoutLines())
          // Each block stamped with its local time, as every table's times are.
          .anyMatch(l -> l.matches("\\d\\d:\\d\\d:\\d\\d\\.\\d{3}"))
          .anyMatch(
              l ->
                  // A Meter counter: its running total, then the interval's rate, as
                  // dotnet-counters shows it.
                  l.matches(
                      " +clrscope\\.demo\\.requests \\(\\{request}\\) \\[route=/a] +[\\d,]+ +70( .*)?"))
          .anyMatch(l -> l.matches(" +Value +Rate / 1 s +Delta"))
          .anyMatch(l -> l.matches(" +clrscope\\.demo\\.latency \\(ms\\) \\[route=/a] p99 +64"))
          .anyMatch(l -> l.matches(" +clrscope\\.demo\\.unused .*waiting for first value"))
          .anyMatch(l -> l.matches(" +no\\.such +waiting for first value"));
      assertThat(r.stderr()).contains("System.Runtime[no.such] (Meter): never published");
    }
  }

  @Test
  void monitorOnATerminalRedrawsInPlaceAndQuitsOnQ() throws Exception {
    try (TargetProcess app = app("--no-stdin")) {
      String command =
          "'"
              + Clrscope.launcher()
              + "' counters monitor -p "
              + app.pid()
              + " --counters Clrscope.Demo --duration 20s";
      // script(1) gives the CLI a pseudo-terminal for stdin and stdout.
      Process script =
          new ProcessBuilder("script", "-qfec", command, "/dev/null")
              .redirectErrorStream(true)
              .start();
      ByteCollector out = new ByteCollector(script);
      // q once the board has been drawn with a value.
      org.awaitility.Awaitility.await()
          .atMost(RUN)
          .until(() -> out.text().contains("Status: Running") && out.text().contains("[route=/a]"));
      script.getOutputStream().write('q');
      script.getOutputStream().flush();
      assertThat(script.waitFor(30, TimeUnit.SECONDS)).as("%s", out).isTrue();
      String text = out.text();
      assertThat(script.exitValue()).as(text).isZero();
      assertThat(text)
          .contains("\u001b[H")
          .contains("Status: Running")
          .contains("Stopped (q pressed)");
      assertThat(text.split("\u001b\\[H", -1).length).as(text).isGreaterThan(2);
      assertThat(text)
          .containsPattern(
              "clrscope\\.demo\\.requests \\(\\{request}\\) \\[route=/a] +[\\d,]+ +70");
    }
  }

  @Test
  void listWithAPidShowsWhatTheProcessPublishes() {
    try (TargetProcess app = app("--no-stdin")) {
      CliResult r =
          Clrscope.run(
              RUN,
              "counters",
              "list",
              "-p",
              Long.toString(app.pid()),
              "--event-source",
              "Clrscope-Demo",
              "--format",
              "json");
      assertThat(r.exitCode()).as("%s", r).isZero();
      List<String> rows = new ArrayList<>();
      for (JsonNode row : r.stdoutJson()) {
        rows.add(
            row.path("provider").asText()
                + " "
                + row.path("name").asText()
                + " "
                + row.path("type").asText()
                + " "
                + row.path("unit").asText());
      }
      assertThat(rows)
          .contains(
              "Clrscope.Demo clrscope.demo.requests counter {request}",
              "Clrscope.Demo clrscope.demo.latency histogram ms",
              "Clrscope.Demo clrscope.demo.temperature gauge Cel",
              "Clrscope.Demo clrscope.demo.queue.length observable-gauge {item}",
              "Clrscope.Demo clrscope.demo.connections up-down-counter {connection}",
              "Clrscope.Demo clrscope.demo.unused counter {event}",
              "Clrscope-Demo request-latency mean ms",
              "Clrscope-Demo polls sum null",
              "System.Runtime dotnet.gc.heap.total_allocated observable-counter By");
    }
  }

  @Test
  void listWithoutAProcessShowsTheWellKnownCounters() {
    CliResult r = Clrscope.run("counters", "list");
    assertThat(r.exitCode()).as("%s", r).isZero();
    assertThat(r.stdout()).contains("dotnet.gc.heap.total_allocated").contains("cpu-usage");
  }

  @Test
  void badCountersAreAUsageError() {
    CliResult r = Clrscope.run("counters", "collect", "-p", "1", "--counters", "Prov[a,b");
    assertThat(r.exitCode()).as("%s", r).isEqualTo(2);
    assertThat(r.stderr()).contains("--counters");
  }

  /** Collects a process's output on a thread, so the pipe never fills. */
  private static final class ByteCollector {
    // Appended by the reader thread and read by the test thread: the synchronisation is needed.
    @SuppressWarnings("JdkObsolete")
    private final StringBuffer text = new StringBuffer();

    ByteCollector(Process p) {
      Thread t =
          new Thread(
              () -> {
                try {
                  byte[] buf = new byte[8192];
                  int n;
                  while ((n = p.getInputStream().read(buf)) >= 0) {
                    text.append(new String(buf, 0, n, StandardCharsets.UTF_8));
                  }
                } catch (IOException e) {
                  // The process ended.
                }
              });
      t.setDaemon(true);
      t.start();
    }

    String text() {
      return text.toString();
    }

    @Override
    public String toString() {
      return text();
    }
  }
}
