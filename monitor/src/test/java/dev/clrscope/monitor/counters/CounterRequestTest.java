package dev.clrscope.monitor.counters;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clrscope.ipc.session.EventPipeProvider;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CounterRequestTest {
  @Test
  void parsesDotnetCountersSyntax() {
    List<CounterRequest> r =
        CounterRequest.parseList(
            "System.Runtime[cpu-usage,gc-heap-size], EventCounters\\Microsoft.AspNetCore.Hosting,My.Meter");
    assertThat(r)
        .containsExactly(
            new CounterRequest(
                "System.Runtime", CounterSource.ANY, List.of("cpu-usage", "gc-heap-size")),
            new CounterRequest(
                "Microsoft.AspNetCore.Hosting", CounterSource.EVENT_COUNTERS, List.of()),
            new CounterRequest("My.Meter", CounterSource.ANY, List.of()));
    assertThat(r.get(1)).hasToString("EventCounters\\Microsoft.AspNetCore.Hosting");
  }

  @Test
  void mergesTheSameProviderAndAllWins() {
    assertThat(CounterRequest.parseList("A[x],A[y,x]"))
        .containsExactly(new CounterRequest("A", CounterSource.ANY, List.of("x", "y")));
    assertThat(CounterRequest.parseList("A[x],A"))
        .containsExactly(new CounterRequest("A", CounterSource.ANY, List.of()));
    assertThat(CounterRequest.parseList("A,eventcounters\\A")).hasSize(2);
  }

  @Test
  void rejectsBrokenLists() {
    for (String bad :
        new String[] {"", "A[x", "A]x", "A[x]y", "A[,x]", "A,,B", "[x]", "A[[x]]", "X\\A"}) {
      assertThatThrownBy(() -> CounterRequest.parseList(bad))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void plansSystemRuntimeByVersionAndOtherNamesBothWays() {
    CounterPlan modern =
        CounterPlan.of(CounterRequest.parseList("System.Runtime,Demo[a]"), 1, 10, 1000, 10);
    assertThat(modern.requests())
        .containsExactly(
            new CounterRequest("System.Runtime", CounterSource.METER, List.of()),
            new CounterRequest("Demo", CounterSource.METER, List.of("a")),
            new CounterRequest("Demo", CounterSource.EVENT_COUNTERS, List.of("a")));
    EventPipeProvider metrics = modern.providers().get(0);
    assertThat(metrics.name()).isEqualTo("System.Diagnostics.Metrics");
    assertThat(metrics.keywords()).isEqualTo(0x2);
    assertThat(metrics.arguments())
        .containsEntry("SessionId", "SHARED")
        .containsEntry("Metrics", "System.Runtime,Demo\\a")
        .containsEntry("RefreshInterval", "1")
        .containsEntry("MaxTimeSeries", "1000")
        .containsEntry("MaxHistograms", "10")
        .containsKey("ClientId");
    // Demo's EventCounters; no System.Runtime EventCounters (they can deadlock a starting app).
    assertThat(modern.providers().subList(1, modern.providers().size()))
        .extracting(EventPipeProvider::name, EventPipeProvider::arguments)
        .containsExactly(
            org.assertj.core.groups.Tuple.tuple("Demo", Map.of("EventCounterIntervalSec", "1")));

    CounterPlan old = CounterPlan.of(CounterRequest.parseList("System.Runtime"), 2.5, 10, 1000, 6);
    assertThat(old.providers())
        .containsExactly(
            new EventPipeProvider(
                "System.Runtime", 0, 4, Map.of("EventCounterIntervalSec", "2.5"), List.of()));
  }

  @Test
  void decodesTagsQuantilesAndNumbersAsTheRuntimeWritesThem() {
    assertThat(CounterEventDecoder.parseTags("route=/a,room=lab"))
        .containsExactly(Map.entry("route", "/a"), Map.entry("room", "lab"));
    assertThat(CounterEventDecoder.parseTags("")).isEmpty();
    assertThat(CounterEventDecoder.parseQuantiles("0.5=8;0.95=16;0.99=64"))
        .containsExactly(Map.entry(0.5, 8.0), Map.entry(0.95, 16.0), Map.entry(0.99, 64.0));
    assertThat(CounterEventDecoder.parseQuantiles("Percentile=50=1.5"))
        .containsExactly(Map.entry(0.5, 1.5));
    assertThat(CounterEventDecoder.number("")).isNull();
    assertThat(CounterEventDecoder.number("0.07801730000000001")).isEqualTo(0.07801730000000001);
    assertThat(CounterEventDecoder.number("NaN")).isNaN();
    assertThat(CounterEventDecoder.number("∞")).isInfinite();
    assertThat(CounterEventDecoder.number(12.5f)).isEqualTo(12.5);
  }
}
