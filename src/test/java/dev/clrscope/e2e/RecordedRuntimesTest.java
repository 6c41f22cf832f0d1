package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runtimes older than .NET 8 cannot run here (the feed's 3.1 runtime pack does not restore with
 * this SDK): what clrscope reads of them is the traces they recorded, in ../shared/fixtures/ (the
 * TraceEvent baselines, pyroscope's .NET 5 profile), through the CLI a user runs on such a file.
 */
class RecordedRuntimesTest {
  private static final Path FIXTURES = Clrscope.root().resolve("../shared/fixtures").normalize();

  @TempDir Path dir;

  /**
   * Each event type TraceEvent's baseline counts in a trace of .NET Core 2.1 (netperf), .NET 5 and
   * .NET 6 (nettrace V4): {@code trace stats} counts as many.
   */
  @Test
  @RunsCommands(
      value = {"trace stats"},
      recorded = {"Core 2.1", "5", "6"})
  void traceStatsCountsWhatTraceEventCountsInOlderRuntimesTraces() throws Exception {
    Path perfview = FIXTURES.resolve("perfview");
    Path netperf = unzip(perfview.resolve("eventpipe-dotnetcore2.1-linux-x64-objver3.netperf.zip"));
    for (Path trace :
        List.of(
            netperf,
            perfview.resolve("eventpipe-dotnetcore5.0-win-x64-arraytypes.nettrace"),
            perfview.resolve("eventpipe-dotnetcore6.0-win-x64-executioncheckpoints.nettrace"))) {
      CliResult r = Clrscope.run("trace", "stats", trace.toString(), "--format", "json");
      assertThat(r.exitCode()).as("%s", r).isZero();
      Map<String, Long> ours = new HashMap<>();
      for (JsonNode e : r.stdoutJson().get("byEvent")) {
        ours.merge(
            e.get("provider").asText() + "/" + e.get("name").asText(),
            e.get("count").asLong(),
            Long::sum);
      }
      Path baseline = perfview.resolve(trace.getFileName() + ".baseline.txt");
      int compared = 0;
      for (String line : Files.readAllLines(baseline, StandardCharsets.UTF_8)) {
        String[] parts = line.replace("\uFEFF", "").split(", ", 3);
        if (parts.length < 3 || !parts[1].matches("\\d+")) {
          continue;
        }
        // TraceEvent names an EventSource event whose opcode it does not know by the number too
        // (TestEventSource0/TestEvent3/24).
        String name =
            ours.containsKey(parts[0])
                ? parts[0]
                : parts[0].substring(0, parts[0].lastIndexOf('/'));
        assertThat(ours.get(name)).as("%s in %s: %s", parts[0], trace, ours).isNotNull();
        assertThat(ours.get(name))
            .as("%s in %s", parts[0], trace)
            .isEqualTo(Long.parseLong(parts[1]));
        compared++;
      }
      assertThat(compared).as("%s", baseline).isPositive();
    }
  }

  /**
   * pyroscope's .NET 5 profile of an app whose Main calls Fast() and Slow(), each calling
   * Work(int32): Work burns the CPU, and Slow holds four times Fast's samples (its folded stacks
   * say 80 % and 20 %).
   */
  @Test
  @RunsCommands(
      value = {"trace report"},
      recorded = {"5"})
  void traceReportOfANet5ProfileNamesItsHotMethod() {
    CliResult r =
        Clrscope.run(
            "trace",
            "report",
            FIXTURES
                .resolve("pyroscope/dotnet-5.0-SampleProfiler-single-thread.nettrace")
                .toString(),
            "topN",
            "-N",
            "10",
            "--format",
            "json");
    assertThat(r.exitCode()).as("%s", r).isZero();
    JsonNode doc = r.stdoutJson();
    Map<String, JsonNode> methods = AnalyzeCli.byKey(doc.get("methods"), "method");
    assertThat(doc.get("methods").get(0).get("method").asText()).isEqualTo("Example.Program.Work");
    long slow = methods.get("Example.Program.Slow").get("inclusive").asLong();
    long fast = methods.get("Example.Program.Fast").get("inclusive").asLong();
    assertThat(slow + fast).isGreaterThan(doc.get("samples").asLong() * 9 / 10);
    assertThat((double) slow / fast).isBetween(3.9, 4.1);
  }

  private Path unzip(Path zip) throws IOException {
    try (InputStream in = Files.newInputStream(zip);
        ZipInputStream z = new ZipInputStream(in)) {
      ZipEntry entry = z.getNextEntry();
      assertThat(entry).as("%s", zip).isNotNull();
      Path out = dir.resolve(Path.of(entry.getName()).getFileName());
      Files.copy(z, out);
      return out;
    }
  }
}
