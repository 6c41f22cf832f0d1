package dev.clrscope.serve;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clrscope.monitor.counters.InstrumentType;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The exposition format's rules: names, HELP/TYPE once per metric, escaping, counters, summaries.
 */
class PrometheusTextTest {
  private static final ProcessFacts APP =
      new ProcessFacts(42, "My \"App\"\n", "10.0.12", "dotnet app.dll");

  private static SeriesState series(
      String provider, String name, InstrumentType type, Map<String, String> tags, Double value) {
    return new SeriesState(provider, name, "By", type, tags, value, 0, 0, Map.of());
  }

  @Test
  void gaugesCountersAndTheirLabels() {
    String text =
        PrometheusText.render(
            List.of(
                new ProcessMetrics(
                    APP,
                    List.of(
                        series(
                            "System.Runtime",
                            "cpu-usage",
                            InstrumentType.EVENT_COUNTER,
                            Map.of(),
                            1.5),
                        series(
                            "Demo",
                            "demo.requests",
                            InstrumentType.COUNTER,
                            Map.of("route", "/a\\b", "__x", "y"),
                            280.0),
                        series("Demo", "demo.waiting", InstrumentType.GAUGE, Map.of(), null)))));
    assertThat(text)
        .isEqualTo(
            "# HELP cpu_usage cpu-usage (By), from System.Runtime\n"
                + "# TYPE cpu_usage gauge\n"
                + "cpu_usage{pid=\"42\",name=\"My \\\"App\\\"\\n\",runtime_version=\"10.0.12\","
                + "provider=\"System.Runtime\"} 1.5\n"
                + "# HELP demo_requests_total demo.requests (By), from Demo\n"
                + "# TYPE demo_requests_total counter\n"
                + "demo_requests_total{pid=\"42\",name=\"My \\\"App\\\"\\n\",runtime_version=\"10.0.12\","
                + "provider=\"Demo\",tag__x=\"y\",route=\"/a\\\\b\"} 280\n");
  }

  @Test
  void histogramsAreSummariesWithCumulativeSumAndCount() {
    SeriesState latency =
        new SeriesState(
            "Demo",
            "demo.latency",
            "ms",
            InstrumentType.HISTOGRAM,
            Map.of(),
            null,
            4000,
            52480,
            Map.of(0.5, 8.0, 0.95, 16.0));
    assertThat(PrometheusText.render(List.of(new ProcessMetrics(APP, List.of(latency)))))
        .contains("# TYPE demo_latency summary\n")
        .contains("demo_latency{pid=\"42\"")
        .contains(",quantile=\"0.5\"} 8\n")
        .contains(",quantile=\"0.95\"} 16\n")
        .contains("demo_latency_sum{")
        .contains("} 52480\n")
        .contains("demo_latency_count{")
        .contains("} 4000\n");
  }

  @Test
  void namesAndNumbers() {
    assertThat(PrometheusText.metricName("dotnet.gc.collections"))
        .isEqualTo("dotnet_gc_collections");
    assertThat(PrometheusText.metricName("9lives")).isEqualTo("_9lives");
    assertThat(PrometheusText.metricName("a:b-c")).isEqualTo("a:b_c");
    assertThat(PrometheusText.labelName("a:b")).isEqualTo("a_b");
    assertThat(PrometheusText.number(Double.NaN)).isEqualTo("NaN");
    assertThat(PrometheusText.number(Double.POSITIVE_INFINITY)).isEqualTo("+Inf");
    assertThat(PrometheusText.number(0.25)).isEqualTo("0.25");
    assertThat(PrometheusText.number(3.0)).isEqualTo("3");
    assertThat(PrometheusText.number(1e20)).isEqualTo("1.0E20");
  }

  @Test
  void aSameNamedInstrumentOfAnotherKindGetsItsProviderAsAPrefix() {
    String text =
        PrometheusText.render(
            List.of(
                new ProcessMetrics(
                    APP,
                    List.of(
                        series("A", "x", InstrumentType.GAUGE, Map.of(), 1.0),
                        series("B.C", "x", InstrumentType.UP_DOWN_COUNTER, Map.of(), 2.0),
                        new SeriesState(
                            "B.C",
                            "x",
                            "",
                            InstrumentType.HISTOGRAM,
                            Map.of(),
                            null,
                            1,
                            1,
                            Map.of(0.5, 1.0))))));
    assertThat(text).contains("# TYPE x gauge\n").contains("# TYPE B_C_x summary\n");
    assertThat(text.lines().filter(l -> l.startsWith("# TYPE x "))).hasSize(1);
  }
}
