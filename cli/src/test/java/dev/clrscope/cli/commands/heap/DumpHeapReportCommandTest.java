package dev.clrscope.cli.commands.heap;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clrscope.cli.CliRun;
import dev.clrscope.cli.SharedFixtures;
import dev.clrscope.heapwalk.TypeStatistics;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code dump-heap report} of the .gcdump files the real dotnet-gcdump wrote. */
class DumpHeapReportCommandTest {
  @Test
  void reportsCountsTotalsAndRetainedSizesOfADotnetGcdumpFile() throws Exception {
    Path file = SharedFixtures.of("gcdump", "widget.gcdump");
    CliRun r = CliRun.of("dump-heap", "report", file.toString(), "--type", "^Widget");
    assertThat(r.exit()).as(r.err()).isZero();
    HeapReportOptions.Head head = r.report().record();
    assertThat(head.s().totalSize()).isEqualTo(5_986_474);
    assertThat(head.source()).isEqualTo("widget.gcdump holds");
    // Sorted by retained size: the array that holds every Widget first.
    assertThat(r.report().<TypeStatistics>rows("types"))
        .containsExactly(
            new TypeStatistics("Widget[]", 1, 987_680, 5_925_960),
            new TypeStatistics("Widget", 123_457, 4_938_280, 4_938_280));
  }

  @Test
  void docsHeapMdShowsWhatTheCommandPrintsForWidgetGcdump() throws Exception {
    Path file = SharedFixtures.of("gcdump", "widget.gcdump");
    CliRun r = CliRun.of("dump-heap", "report", file.toString(), "--top", "2");
    assertThat(r.exit()).as(r.err()).isZero();
    String doc = Files.readString(docs().resolve("heap.md"));
    String example =
        doc.substring(doc.indexOf("$ clrscope dump-heap report widget.gcdump --top 2\n"));
    example = example.substring(example.indexOf('\n') + 1, example.indexOf("```"));
    assertThat(example).isEqualTo(r.out());
  }

  /** The repository's docs directory, found above the working directory. */
  private static Path docs() {
    for (Path d = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        d != null;
        d = d.getParent()) {
      if (Files.isRegularFile(d.resolve("docs/heap.md"))) {
        return d.resolve("docs");
      }
    }
    throw new AssertionError("docs/heap.md not found above " + System.getProperty("user.dir"));
  }

  @Test
  void aCutFileIsATargetErrorNamingTheOffset(@TempDir Path dir) throws Exception {
    byte[] whole = Files.readAllBytes(SharedFixtures.of("gcdump", "generic.gcdump"));
    Path cut = dir.resolve("cut.gcdump");
    Files.write(cut, java.util.Arrays.copyOf(whole, whole.length / 2));
    CliRun r = CliRun.of("dump-heap", "report", cut.toString());
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err().strip())
        .startsWith("clrscope dump-heap report: " + cut + " is not a readable .gcdump: at offset ")
        .doesNotContain("Exception")
        .doesNotContain("\n");
  }

  @Test
  void dominatorsOfAFileShowTheArrayRetainingEveryWidgetAndWriteAFlameGraph(@TempDir Path dir)
      throws Exception {
    Path file = SharedFixtures.of("gcdump", "widget.gcdump");
    Path flame = dir.resolve("heap.folded");
    CliRun r =
        CliRun.of(
            "dump-heap",
            "dominators",
            "--file",
            file.toString(),
            "--depth",
            "5",
            "--min-percent",
            "50",
            "--format",
            "json",
            "--flame",
            flame.toString());
    assertThat(r.exit()).as(r.err()).isZero();
    JsonNode top = new ObjectMapper().readTree(r.out());
    JsonNode array = top.get(0).get("children").get(0);
    assertThat(array.get("type").asText()).isEqualTo("Widget[]");
    assertThat(array.get("size").asLong()).isEqualTo(987680);
    assertThat(array.get("retained").asLong()).isEqualTo(5925960);
    long total = 0;
    for (String line : Files.readAllLines(flame)) {
      total += Long.parseLong(line.substring(line.lastIndexOf(' ') + 1));
    }
    assertThat(total).isEqualTo(5_986_474);
  }
}
