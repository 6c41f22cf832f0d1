package dev.clrscope.cli.commands.counters;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clrscope.monitor.counters.CounterBoard;
import dev.clrscope.monitor.counters.CounterSource;
import dev.clrscope.monitor.counters.InstrumentType;
import dev.clrscope.monitor.counters.Measurement;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code counters monitor}'s board, redrawn in place: it must fit the terminal. */
class BoardLinesTest {
  private static CounterBoard.Row row(String name, Map<String, String> tags, double value) {
    Measurement m =
        new Measurement(
            Instant.parse("2026-01-02T03:04:05Z"),
            "System.Runtime",
            CounterSource.METER,
            name,
            name,
            "By",
            InstrumentType.GAUGE,
            tags,
            null,
            value,
            null,
            null,
            null,
            null,
            Map.of(),
            1.0);
    return new CounterBoard.Row(
        "System.Runtime", CounterSource.METER, name, "By", InstrumentType.GAUGE, tags, m, 12.0);
  }

  private static List<CounterBoard.Row> rows() {
    return List.of(
        row(
            "dotnet.gc.last_collection.heap.fragmentation.size",
            Map.of("gc.heap.generation", "gen0", "some.other.tag", "a-rather-long-value"),
            123456789.0),
        row("dotnet.process.memory.working_set", Map.of(), 98765.0));
  }

  @Test
  void eightyColumnsHoldEveryLineWithTheValuesWhole() {
    List<String> lines = BoardLines.render(rows(), 1, true, false, 80);
    assertThat(lines).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(80));
    assertThat(String.join("\n", lines)).contains("123,456,789").contains("98,765").contains("...");
  }

  /**
   * The case: five series of one name at 80 columns were five identical rows, the tag that
   * tells them apart cut. The name gives way first; every tag stays.
   */
  @Test
  void atEightyColumnsTheTagsThatTellSeriesApartStay() {
    List<CounterBoard.Row> rows = new java.util.ArrayList<>();
    for (String gen : List.of("gen0", "gen1", "gen2", "loh", "poh")) {
      rows.add(row("dotnet.gc.last_collection.heap.size", Map.of("gc.heap.generation", gen), 1e9));
    }
    List<String> lines = BoardLines.render(rows, 1, true, false, 80);
    List<String> series = lines.subList(lines.size() - 5, lines.size());
    assertThat(series).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(80));
    assertThat(series).doesNotHaveDuplicates();
    for (String gen : List.of("gen0", "gen1", "gen2", "loh", "poh")) {
      assertThat(series)
          .anyMatch(
              l -> l.contains("[gc.heap.generation=" + gen + "]") && l.contains("1,000,000,000"));
    }
    assertThat(series).allMatch(l -> l.contains("heap.size (By)"));
  }

  @Test
  void withoutATerminalNothingIsCut() {
    List<String> lines = BoardLines.render(rows(), 1, true, false, 0);
    assertThat(String.join("\n", lines))
        .contains("dotnet.gc.last_collection.heap.fragmentation.size")
        .contains("a-rather-long-value")
        .doesNotContain("...");
  }
}
