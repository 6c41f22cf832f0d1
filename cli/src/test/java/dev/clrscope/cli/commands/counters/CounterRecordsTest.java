package dev.clrscope.cli.commands.counters;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clrscope.cli.render.OutputFormat;
import dev.clrscope.cli.render.Records;
import dev.clrscope.cli.render.Renderer;
import dev.clrscope.monitor.counters.CounterSource;
import dev.clrscope.monitor.counters.InstrumentType;
import dev.clrscope.monitor.counters.Measurement;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CounterRecordsTest {
  private static final Instant T = Instant.parse("2026-01-02T03:04:05.123456789Z");

  private static Measurement counter(Double rate) {
    return new Measurement(
        T,
        "Demo",
        CounterSource.METER,
        "requests",
        "requests",
        "{request}",
        InstrumentType.COUNTER,
        Map.of("route", "/a"),
        rate,
        140.0,
        null,
        null,
        null,
        null,
        Map.of(),
        null);
  }

  private static Measurement histogram() {
    Map<Double, Double> q = new LinkedHashMap<>();
    q.put(0.5, 8.0);
    q.put(0.99, Double.POSITIVE_INFINITY);
    return new Measurement(
        T,
        "Demo",
        CounterSource.METER,
        "latency",
        "latency",
        "ms",
        InstrumentType.HISTOGRAM,
        Map.of(),
        null,
        null,
        null,
        null,
        1000L,
        13120.0,
        q,
        null);
  }

  private static Measurement eventCounter() {
    return new Measurement(
        T,
        "My,Source",
        CounterSource.EVENT_COUNTERS,
        "cpu",
        "CPU \"Usage\"",
        "%",
        InstrumentType.EVENT_COUNTER,
        Map.of(),
        null,
        Double.NaN,
        1.0,
        3.0,
        2L,
        null,
        Map.of(),
        1.0);
  }

  private static String write(OutputFormat f, List<Measurement> ms) {
    return write(
        f,
        f == OutputFormat.jsonl ? CounterRecords.Layout.full : CounterRecords.Layout.dotnetCounters,
        ms);
  }

  private static String write(OutputFormat f, CounterRecords.Layout layout, List<Measurement> ms) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    Renderer r = Renderer.of(f, out, out, 0);
    if (layout == CounterRecords.Layout.dotnetCounters) {
      r.draw(
          Records.of(
              CounterRecords.dotnetCounters("app"),
              sink -> {
                ms.forEach(m -> CounterRecords.lines(m, 1).forEach(sink::write));
                return null;
              }));
    } else {
      r.draw(
          Records.of(
              CounterRecords.full(Map.of("pid", 42)),
              sink -> {
                ms.forEach(sink::write);
                return CounterRecords.summary("duration reached", List.of("note"));
              }));
    }
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void csvHasDotnetCountersColumnsUnitsTagsAndPercentileRows() {
    String csv =
        write(OutputFormat.csv, List.of(counter(70.0), counter(null), histogram(), eventCounter()));
    assertThat(csv.lines().toList())
        .containsExactly(
            "Timestamp,Provider,Counter Name,Counter Type,Mean/Increment",
            "2026-01-02T03:04:05.123456789Z,Demo,requests ({request} / 1 sec)[route=/a],Rate,70",
            "2026-01-02T03:04:05.123456789Z,Demo,latency (ms)[Percentile=50],Metric,8",
            "2026-01-02T03:04:05.123456789Z,Demo,latency (ms)[Percentile=99],Metric,Infinity",
            "2026-01-02T03:04:05.123456789Z,\"My,Source\",\"CPU \"\"Usage\"\" (%)\",Metric,NaN");
  }

  @Test
  void jsonIsDotnetCountersLayoutWithOneEventPerNumber() throws Exception {
    ObjectMapper json = new ObjectMapper();
    JsonNode root =
        json.readTree(
            write(
                OutputFormat.json,
                List.of(counter(70.0), counter(null), histogram(), eventCounter())));
    assertThat(root.fieldNames())
        .toIterable()
        .containsExactly("TargetProcess", "StartTime", "Events");
    JsonNode events = root.path("Events");
    assertThat(events).hasSize(4);
    JsonNode first = events.get(0);
    assertThat(first.fieldNames())
        .toIterable()
        .containsExactly("timestamp", "provider", "name", "tags", "counterType", "value");
    assertThat(first.path("timestamp").asText()).isEqualTo("2026-01-02 03:04:05Z");
    assertThat(first.path("name").asText()).isEqualTo("requests ({request} / 1 sec)");
    assertThat(first.path("tags").asText()).isEqualTo("route=/a");
    assertThat(first.path("counterType").asText()).isEqualTo("Rate");
    assertThat(first.path("value").asDouble()).isEqualTo(70.0);
    assertThat(events.get(1).path("tags").asText()).isEqualTo("Percentile=50");
    // Non-finite numbers stay valid JSON.
    assertThat(events.get(2).get("value").isNull()).isTrue();
    assertThat(json.readTree(write(OutputFormat.json, List.of())).path("Events")).isEmpty();
  }

  @Test
  void jsonFullIsAlwaysValidWithNullForNonFiniteNumbers() throws Exception {
    ObjectMapper json = new ObjectMapper();
    String doc =
        write(
            OutputFormat.json,
            CounterRecords.Layout.full,
            List.of(counter(0.1), histogram(), eventCounter()));
    JsonNode root = json.readTree(doc);
    assertThat(root.path("pid").asInt()).isEqualTo(42);
    assertThat(root.path("summary").path("stopReason").asText()).isEqualTo("duration reached");
    JsonNode ms = root.path("measurements");
    assertThat(ms).hasSize(3);
    assertThat(ms.get(0).path("timestamp").asText()).isEqualTo("2026-01-02T03:04:05.123456789Z");
    assertThat(ms.get(0).path("rate").decimalValue()).isEqualByComparingTo("0.1");
    assertThat(ms.get(0).path("tags").path("route").asText()).isEqualTo("/a");
    assertThat(ms.get(1).path("percentiles").path("p50").asDouble()).isEqualTo(8.0);
    assertThat(ms.get(1).path("percentiles").get("p99").isNull()).isTrue();
    assertThat(ms.get(2).get("value").isNull()).isTrue();
    assertThat(ms.get(2).path("source").asText()).isEqualTo("eventcounters");

    // An empty session is still one valid document.
    assertThat(
            json.readTree(write(OutputFormat.json, CounterRecords.Layout.full, List.of()))
                .path("measurements"))
        .isEmpty();
    List<String> lines =
        write(OutputFormat.jsonl, List.of(counter(1.0), histogram())).lines().toList();
    assertThat(lines).hasSize(3);
    for (String line : lines.subList(0, 2)) {
      assertThat(json.readTree(line).path("provider").asText()).isEqualTo("Demo");
    }
    // Then the summary, as every JSON Lines stream ends.
    assertThat(json.readTree(lines.get(2)).path("kind").asText()).isEqualTo("summary");
    assertThat(json.readTree(lines.get(2)).path("notes").get(0).asText()).isEqualTo("note");
  }

  @Test
  void numbersReadWell() {
    assertThat(CounterText.exact(1e7)).isEqualTo("10000000");
    assertThat(CounterText.exact(0.0780173)).isEqualTo("0.0780173");
    assertThat(CounterText.display(89304.0)).isEqualTo("89,304");
    assertThat(CounterText.display(1234.56789)).isEqualTo("1,234.568");
    assertThat(CounterText.display(-0.5)).isEqualTo("-0.5");
    assertThat(CounterText.percentile(0.999)).isEqualTo("p99.9");
  }
}
