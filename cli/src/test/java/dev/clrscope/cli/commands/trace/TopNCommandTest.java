package dev.clrscope.cli.commands.trace;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clrscope.cli.CliRun;
import dev.clrscope.cli.render.EightyColumns;
import dev.clrscope.cli.render.Report;
import dev.clrscope.monitor.profile.MethodSamples;
import dev.clrscope.symbols.SourceLine;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code trace report FILE topN} on pyroscope's single-thread trace, whose folded stacks give every
 * count: 5564 samples, Main → {Fast, Slow} → Work.
 */
class TopNCommandTest {
  private static final Path TRACE =
      Fixtures.pyroscope("dotnet-5.0-SampleProfiler-single-thread.nettrace");
  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void exclusiveAndInclusiveCountsAsTheFoldedStacksHaveThem() throws Exception {
    CliRun r = CliRun.of("trace", "report", TRACE.toString(), "topN", "--format", "json");
    assertThat(r.exit()).as("%s", r).isZero();
    JsonNode doc = JSON.readTree(r.out());
    assertThat(doc.path("samples").asLong()).isEqualTo(5564);
    assertThat(doc.path("cpuSamples").asLong() + doc.path("externalSamples").asLong())
        .isEqualTo(5564);
    assertThat(doc.path("threads").asInt()).isEqualTo(1);
    JsonNode work = doc.path("methods").get(0);
    assertThat(work.path("method").asText()).isEqualTo("Example.Program.Work");
    assertThat(work.path("exclusive").asLong()).isEqualTo(5548);
    assertThat(work.path("exclusivePercent").asDouble()).isEqualTo(99.71);
    assertThat(doc.path("methods")).hasSize(4);
  }

  @Test
  void inclusiveOrderPutsTheRootFirstAndSignaturesAreShownWhenAsked() throws Exception {
    // dotnet-trace's order: the file before topN. After it works too.
    CliRun r =
        CliRun.of(
            "trace",
            "report",
            "topN",
            TRACE.toString(),
            "-N",
            "2",
            "--inclusive",
            "--signatures",
            "--format",
            "json");
    assertThat(r.exit()).as("%s", r).isZero();
    JsonNode methods = JSON.readTree(r.out()).path("methods");
    assertThat(methods).hasSize(2);
    assertThat(methods.get(0).path("method").asText())
        .isEqualTo("Example.Program.Main(System.String[])");
    assertThat(methods.get(0).path("inclusive").asLong()).isEqualTo(5564);
    assertThat(methods.get(0).path("inclusivePercent").asDouble()).isEqualTo(100.0);
    assertThat(methods.get(1).path("method").asText()).isEqualTo("Example.Program.Work(int32)");
  }

  /**
   * The case at 80 columns: METHOD was cut to {@code UxApp.Progra...} and LINE to {@code
   * Program...} while every count kept its width. The method and its line stay whole; counts go.
   */
  @Test
  void atEightyColumnsTheMethodAndItsLineStayWhole() {
    String method = "UxApp.Program.<Main>g__RenderFrame|0_3(System.Int32)";
    SourceLine line = new SourceLine("/src/UxApp/Program.cs", 142);
    List<TopNCommand.Ranked> rows =
        List.of(
            new TopNCommand.Ranked(
                1, new MethodSamples(method, line, 4321, 4000, 5000, 4500), 9000),
            new TopNCommand.Ranked(
                2, new MethodSamples("UxApp.Program.Main", null, 12, 10, 9000, 8000), 9000));
    List<String> lines = EightyColumns.report(Report.table(TopNCommand.methods(true), rows));
    assertThat(lines).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(80));
    assertThat(lines.get(1)).contains(method).contains("Program.cs:142").contains("4,321");
    assertThat(lines.get(0)).contains("METHOD").contains("LINE").doesNotContain("CPU");
  }

  @Test
  void theNumberIsSpelledAsDotnetTraceSpellsIt() {
    // -n|--number, as dotnet-trace: trace report reads a file, so -n names no process here.
    for (String option : List.of("-n", "--number", "--top")) {
      CliRun r = CliRun.of("trace", "report", TRACE.toString(), "topN", option, "3");
      assertThat(r.exit()).as("%s", r).isZero();
      assertThat(r.report().rows("methods")).hasSize(3);
    }
    // One default with every command's --top.
    CliRun all = CliRun.of("trace", "report", TRACE.toString(), "topN", "-n", "0");
    assertThat(all.report().rows("methods")).hasSize(4);
    assertThat(CliRun.of("trace", "report", TRACE.toString(), "topN", "-n", "-1").exit())
        .isEqualTo(2);
  }

  @Test
  void aThreadWithNoSamplesAndMistakesSayWhatToDo() {
    CliRun none = CliRun.of("trace", "report", TRACE.toString(), "topN", "--thread", "1");
    assertThat(none.exit()).isZero();
    assertThat(none.err()).contains("no thread samples of thread 1");
    CliRun twice = CliRun.of("trace", "report", TRACE.toString(), "topN", TRACE.toString());
    assertThat(twice.exit()).isEqualTo(2);
    assertThat(twice.err()).contains("give the trace once");
    CliRun missing = CliRun.of("trace", "report", "topN");
    assertThat(missing.exit()).isEqualTo(2);
    assertThat(missing.err()).contains("give the trace: trace report FILE topN");
  }
}
