package dev.clrscope.cli.commands.gc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clrscope.cli.render.OutputFormat;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Records;
import dev.clrscope.cli.render.Renderer;
import dev.clrscope.cli.render.Report;
import dev.clrscope.monitor.gc.CondemnReasons;
import dev.clrscope.monitor.gc.GcRecord;
import dev.clrscope.monitor.gc.GenerationSizes;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The GC record's fields, declared once, in every format gcstats and fullgc print. */
class GcOutputTest {
  private static final Instant T = Instant.parse("2026-01-02T03:04:05.123Z");

  /** A GC whose pause mode holds a comma and a quote: CSV must quote it. */
  private static GcRecord gc(long number, long csn) {
    return new GcRecord(
        number,
        2,
        "NonConcurrent",
        "Induced",
        csn,
        0,
        T,
        3_000_000L,
        1_250_000L,
        125_000L,
        10_485_760L,
        2_097_152L,
        new GenerationSizes(24, 1024, 2_000_000, 85_000, 0),
        1_000_000L,
        4096L,
        3L,
        2,
        new CondemnReasons(0, 2, 0, 0, List.of("induced", "gen2 budget")),
        "Batch, \"x\"",
        12L,
        List.of("Compaction", "Promotion"),
        List.of());
  }

  private static String print(OutputFormat format, GcRecord... gcs) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    Renderer.of(format, out, out, 0)
        .draw(
            Records.of(
                GcOutput.stream(false, GcOutput.schema(false), true),
                sink -> {
                  sink.start();
                  for (GcRecord r : gcs) {
                    sink.write(r);
                  }
                  return null;
                }));
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void csvHasEveryKeyOnceAndQuotesAsRfc4180Says() {
    List<String> lines = print(OutputFormat.csv, gc(7, 0)).lines().toList();
    assertThat(lines.get(0))
        .isEqualTo(
            "startUtc,gc,generation,type,reason,clientSequenceNumber,pauseMs,suspendMs,durationMs,"
                + "heapSizeBeforeBytes,heapSizeAfterBytes,gen0AfterBytes,gen1AfterBytes,"
                + "gen2AfterBytes,lohAfterBytes,pohAfterBytes,promotedBytes,fragmentationBytes,"
                + "pinnedObjects,condemnedGeneration,initialGeneration,finalPerHeapGeneration,"
                + "budgetExceededGeneration,condemnConditions,pauseMode,memoryPressurePercent,"
                + "globalMechanisms,heaps");
    assertThat(lines.get(1))
        .isEqualTo(
            "2026-01-02T03:04:05.123Z,7,2,NonConcurrent,Induced,0,1.25,0.125,3.0,10485760,2097152,"
                + "24,1024,2000000,85000,0,1000000,4096,3,2,0,2,0,induced gen2 budget,"
                + "\"Batch, \"\"x\"\"\",12,Compaction Promotion,0");
  }

  @Test
  void jsonLinesNestSizesAndCondemnReasons() throws Exception {
    JsonNode o = new ObjectMapper().readTree(print(OutputFormat.jsonl, gc(7, 0)).strip());
    assertThat(o.get("kind").asText()).isEqualTo("gc");
    assertThat(o.get("gc").asLong()).isEqualTo(7);
    assertThat(o.get("sizeAfterBytes").get("gen2").asLong()).isEqualTo(2_000_000);
    assertThat(o.get("condemnReasons").get("conditions").get(1).asText()).isEqualTo("gen2 budget");
    assertThat(o.get("globalMechanisms").size()).isEqualTo(2);
    assertThat(o.has("gen2AfterBytes")).as("flat columns stay out of JSON").isFalse();
  }

  @Test
  void tableRowsLineUpUnderTheHeading() {
    List<String> lines = print(OutputFormat.table, gc(7, 0), gc(12345, 99)).lines().toList();
    assertThat(lines).hasSize(3);
    int reason = lines.get(0).indexOf("REASON");
    assertThat(lines.get(1).indexOf("Induced")).isEqualTo(reason);
    assertThat(lines.get(2).indexOf("Induced")).isEqualTo(reason);
    assertThat(lines.get(1)).contains(" 10.0 MiB ").contains("Compact,Promote");
    assertThat(lines.get(2)).contains(" 99 ");
  }

  private static List<String> table(RecordSchemaChoice choice) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    Renderer.of(OutputFormat.table, out, out, 0)
        .draw(
            Records.of(
                GcOutput.stream(false, GcOutput.schema(false, choice.columns, choice.width), false),
                sink -> {
                  sink.write(gc(12345, 0));
                  return null;
                }));
    return bytes.toString(StandardCharsets.UTF_8).lines().toList();
  }

  private record RecordSchemaChoice(String columns, int width) {}

  @Test
  void aNarrowTerminalGetsTheMostUsefulColumnsInTheirOrder() {
    List<String> lines = table(new RecordSchemaChoice(null, 80));
    assertThat(lines.get(0).split(" +"))
        .containsExactly("TIME", "GC#", "GEN", "REASON", "PAUSE_MS", "BEFORE", "AFTER");
    assertThat(lines).allMatch(l -> l.length() <= 80);
    assertThat(lines.get(1)).contains("12345").contains("Induced").contains("1.250");

    List<String> wide = table(new RecordSchemaChoice(null, 120));
    assertThat(wide.get(0).split(" +"))
        .containsExactly(
            "TIME",
            "GC#",
            "GEN",
            "TYPE",
            "REASON",
            "PAUSE_MS",
            "SUSP_MS",
            "BEFORE",
            "AFTER",
            "PROMOTED",
            "FRAG");
    assertThat(wide).allMatch(l -> l.length() <= 120);
  }

  @Test
  void everyColumnIsRanked() {
    assertThat(GcOutput.TABLE_PRIORITY)
        .containsExactlyInAnyOrderElementsOf(GcOutput.schema(false).tableKeys());
  }

  @Test
  void outputThatIsNotATerminalOrAsksForAllGetsEveryColumn() {
    int all = GcOutput.schema(false).tableKeys().size();
    assertThat(GcOutput.schema(false, null, 0).tableKeys()).hasSize(all);
    assertThat(GcOutput.schema(false, "ALL", 80).tableKeys()).hasSize(all);
    assertThat(table(new RecordSchemaChoice("all", 80)).get(0)).contains("CONDEMN REASONS");
  }

  @Test
  void columnsByHeadingOrKeyKeepTheirDeclaredOrderAndOnlyTheTableChanges() {
    RecordSchema<GcRecord> s = GcOutput.schema(false, "pause_ms, gc#,heapSizeAfterBytes", 80);
    assertThat(s.tableKeys()).containsExactly("gc", "pauseMs", "heapSizeAfterBytes");
    assertThat(s.csvHeader()).isEqualTo(GcOutput.schema(false).csvHeader());
    assertThatThrownBy(() -> GcOutput.schema(false, "GC#,NOPE", 80))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("no column 'NOPE': the table has TIME, GC#, GEN, TYPE, REASON");
  }

  @Test
  void fullgcReportReusesTheGcFields() throws Exception {
    FullGcCommand.Induced report = new FullGcCommand.Induced(gc(7, 0), 42, true, gc(8, 0));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    PrintStream out = new PrintStream(bytes, true, StandardCharsets.UTF_8);

    Renderer.of(OutputFormat.json, out, out, 0).report(Report.record(FullGcCommand.REPORT, report));
    JsonNode o = new ObjectMapper().readTree(bytes.toString(StandardCharsets.UTF_8));
    assertThat(o.has("kind")).isFalse();
    assertThat(o.get("sizeAfterBytes").get("loh").asLong()).isEqualTo(85_000);
    assertThat(o.get("requestedClientSequenceNumber").asLong()).isEqualTo(42);
    assertThat(o.get("clientSequenceNumberMatched").asBoolean()).isFalse();
    assertThat(o.get("secondGcOnClose").asBoolean()).isTrue();
    assertThat(o.get("secondGc").asLong()).isEqualTo(8);

    bytes.reset();
    Renderer.of(OutputFormat.table, out, out, 0)
        .report(Report.record(FullGcCommand.REPORT, report));
    assertThat(bytes.toString(StandardCharsets.UTF_8).lines())
        .contains(
            "GC number             7",
            "ClientSequenceNumber  0 (not reported by this runtime)",
            "Pause (ms)            1.250",
            "Heap before           10,485,760 (10.0 MiB)",
            "Second GC on close    yes: GC #8 (Induced, gen2) ran when the session closed"
                + " (dotnet/runtime#99487)");

    bytes.reset();
    Renderer.of(OutputFormat.csv, out, out, 0)
        .report(
            Report.record(
                FullGcCommand.REPORT, new FullGcCommand.Induced(gc(7, 0), 42, false, null)));
    assertThat(bytes.toString(StandardCharsets.UTF_8).lines())
        .containsExactly(
            "gc,generation,type,reason,clientSequenceNumber,pauseMs,suspendMs,heapSizeBeforeBytes,"
                + "heapSizeAfterBytes,promotedBytes,secondGcOnClose",
            "7,2,NonConcurrent,Induced,0,1.25,0.125,10485760,2097152,1000000,");
  }
}
