package dev.clrscope.cli.render;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvParser;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** One result drawn by each renderer: what each format promises. */
class RendererTest {
  private record Row(String name, long bytes, long count, List<String> tags) {}

  private static final RecordSchema<Row> SCHEMA =
      new RecordSchema<>(
          "row",
          List.of(
              Field.of("name", "NAME", 6, Unit.TEXT, Row::name),
              Field.of("sizeBytes", "SIZE", 6, Unit.BYTES, Row::bytes),
              Field.of("count", "COUNT", 9, Unit.COUNT, Row::count),
              Field.<Row>of("tags", "TAGS", 0, Unit.WORDS, Row::tags),
              Field.<Row>data("exactOnly", Unit.COUNT, r -> null).optional()));

  private record Node(String type, long retained, List<Node> children) {}

  private static final RecordSchema<Node> NODE =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("retained", "RETAINED", 0, Unit.COUNT, Node::retained),
              Field.of("type", "TYPE", 0, Unit.TEXT, Node::type)));

  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  private Renderer renderer(OutputFormat format, int columns) {
    return Renderer.of(
        format,
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8),
        columns);
  }

  private String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  private String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  private static Report report() {
    return Report.builder()
        .values(SCHEMA, new Row("head", 1, 2, List.of()))
        .rows("rows", "Some rows", SCHEMA, rows())
        .primary()
        .note("a note for people")
        .build();
  }

  private static List<Row> rows() {
    return List.of(
        new Row("a,b", 5, 1234567, List.of("p", "q")),
        new Row("say \"hi\"", 3 * 1024 * 1024, 0, List.of()),
        new Row("two\nlines", 7, 1, List.of()));
  }

  @Test
  void aStreamAsOneJsonDocumentStaysValidWithNoRecords() throws Exception {
    Renderer.RecordSink<Row> s =
        renderer(OutputFormat.json, 0)
            .records(Renderer.Stream.live(SCHEMA).inDocument(Map.of("pid", 7), "rows"));
    s.start();
    s.finish(Report.record(SCHEMA, new Row("sum", 1, 1, List.of())));
    JsonNode o = new ObjectMapper().readTree(out());
    assertThat(o.get("pid").asInt()).isEqualTo(7);
    assertThat(o.get("rows").size()).isZero();
    assertThat(o.get("summary").get("name").asText()).isEqualTo("sum");
  }

  @Test
  void aStreamAsOneJsonDocumentHoldsEveryRecordInOrder() throws Exception {
    Renderer.RecordSink<Row> s =
        renderer(OutputFormat.json, 0).records(Renderer.Stream.live(SCHEMA));
    rows().forEach(s::write);
    s.finish(null);
    JsonNode o = new ObjectMapper().readTree(out());
    assertThat(o.get("records").get(0).get("tags").get(1).asText()).isEqualTo("q");
    assertThat(o.get("records").get(2).get("name").asText()).isEqualTo("two\nlines");
    assertThat(o.get("records").get(0).has("exactOnly")).as("optional, absent").isFalse();
    assertThat(o.get("records").get(0).get("count").asLong())
        .as("plain numbers")
        .isEqualTo(1234567);
    assertThat(s.written()).isEqualTo(3);
  }

  @Test
  void jsonLinesAreAnObjectPerRecordThenTheSummary() throws Exception {
    Renderer.RecordSink<Row> s =
        renderer(OutputFormat.jsonl, 0).records(Renderer.Stream.live(SCHEMA));
    rows().forEach(s::write);
    s.finish(Report.record(new RecordSchema<>("summary", SCHEMA.fields()), rows().get(0)));
    List<String> lines = out().lines().toList();
    assertThat(lines).hasSize(4);
    for (String line : lines) {
      new ObjectMapper().readTree(line);
    }
    assertThat(new ObjectMapper().readTree(lines.get(0)).get("kind").asText()).isEqualTo("row");
    assertThat(new ObjectMapper().readTree(lines.get(3)).get("kind").asText()).isEqualTo("summary");
  }

  @Test
  void csvQuotesWhatNeedsQuotingAndPutsTheSummaryOnStderr() {
    Renderer.RecordSink<Row> s =
        renderer(OutputFormat.csv, 0).records(Renderer.Stream.live(SCHEMA));
    rows().forEach(s::write);
    s.finish(Report.record(SCHEMA, new Row("total", 1, 2, List.of())));
    assertThat(out())
        .isEqualTo(
            "name,sizeBytes,count,tags,exactOnly\n"
                + "\"a,b\",5,1234567,p q,\n"
                + "\"say \"\"hi\"\"\",3145728,0,,\n"
                + "\"two\nlines\",7,1,,\n");
    assertThat(err()).contains("NAME   total");
  }

  @Test
  void tableCellsUseOneNumberStyle() {
    Renderer.RecordSink<Row> s =
        renderer(OutputFormat.table, 0).records(Renderer.Stream.live(SCHEMA));
    s.write(new Row("a", 3 * 1024 * 1024, 1234567, List.of("p", "q")));
    assertThat(out().lines())
        .containsExactly(
            "NAME        SIZE      COUNT  TAGS", //
            "a       3.00 MiB  1,234,567  p,q");
  }

  @Test
  void aLiveTableNeverWidensPastTheTerminal() {
    Renderer.RecordSink<Row> s =
        renderer(OutputFormat.table, 24).records(Renderer.Stream.live(SCHEMA));
    s.write(new Row("a", 1, 1, List.of("a-very-long-tag-list", "and-more")));
    for (String line : out().lines().toList()) {
      assertThat(line.length()).isLessThanOrEqualTo(24);
    }
    // COUNT does not fit; the narrower TAGS after it still does.
    assertThat(err()).contains("Showing 3 of 4 columns to fit 24 terminal columns");
  }

  @Test
  void aReportFitsTheTerminalCuttingTheWidestTextColumn() {
    RecordSchema<Row> ranked = SCHEMA.withPriority(List.of("name", "count"));
    List<Row> wide = List.of(new Row("x".repeat(100), 1, 2, List.of("t")));
    renderer(OutputFormat.table, 40).report(Report.table(ranked, wide));
    List<String> lines = out().lines().toList();
    assertThat(lines).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(40));
    assertThat(lines.get(1)).contains("...").contains("2");
    renderer(OutputFormat.table, 0);
  }

  /** A live view taller than the terminal: the frame fits, its last line saying what is left. */
  @Test
  void aLiveViewFitsTheTerminalsHeightAsWellAsItsWidth() {
    List<String> lines = new java.util.ArrayList<>();
    for (int i = 0; i < 35; i++) {
      lines.add("line " + i + " " + "x".repeat(100));
    }
    List<String> frame =
        EightyColumns.liveFrame(
            new LiveView() {
              @Override
              public void start(boolean inPlace) {
                assertThat(inPlace).isTrue();
              }

              @Override
              public List<String> frame(int width) {
                assertThat(width).isEqualTo(80);
                return lines;
              }
            });
    // A 35-line frame on a 30-line terminal would scroll it: 29 lines, the last one a note.
    assertThat(frame).hasSize(29);
    assertThat(frame).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(80));
    assertThat(frame.get(27)).startsWith("line 27 ");
    assertThat(frame.get(28)).isEqualTo("... 7 more lines: a taller terminal shows them");
  }

  /** Columns with nothing in them go before those that have something. */
  @Test
  void anEmptyColumnGoesBeforeAFullOne() {
    RecordSchema<Row> schema =
        new RecordSchema<>(
            null,
            List.of(
                Field.of("name", "NAME", 0, Unit.TEXT, Row::name),
                Field.<Row>of("dns", "DNS_MS", 0, Unit.MILLIS, r -> null),
                Field.of("count", "COUNT", 0, Unit.COUNT, Row::count)),
            List.of("name", "dns", "count"),
            "name");
    List<String> lines =
        EightyColumns.report(
            Report.table(schema, List.of(new Row("n".repeat(70), 1, 12345, List.of()))));
    assertThat(lines.get(0)).contains("COUNT").doesNotContain("DNS_MS");
    assertThat(lines.get(1)).contains("n".repeat(70)).contains("12,345");
  }

  /** Text from the target is shown, not obeyed, in a table and in CSV; JSON escapes it itself. */
  @Test
  void controlAndBidiCharactersAreShownNotObeyed() throws Exception {
    String hostile = "a\u001b]0;owned\u0007b\u202egnirts\u2066c\u009bd\u007fe\r\nf";
    Row row = new Row(hostile, 1, 1, List.of(hostile));
    renderer(OutputFormat.table, 0).report(Report.table(SCHEMA, List.of(row)));
    renderer(OutputFormat.csv, 0).report(Report.table(SCHEMA, List.of(row)));
    String text = out();
    assertThat(text)
        .contains("a\\u001b]0;owned\\u0007b\\u202egnirts\\u2066c\\u009bd\\u007fe")
        .doesNotContain("\u001b")
        .doesNotContain("\u0007")
        .doesNotContain("\u202e")
        .doesNotContain("\u2066")
        .doesNotContain("\u009b")
        .doesNotContain("\u007f");
    // A table row stays one line; a CSV field keeps its line break, quoted.
    assertThat(text).contains("\\u007fe  f").contains("\\u007fe\r\nf");
    out.reset();
    renderer(OutputFormat.json, 0).report(Report.table(SCHEMA, List.of(row)));
    assertThat(new ObjectMapper().readTree(out()).get(0).get("name").asText()).isEqualTo(hostile);
  }

  @Test
  void aReportWithoutATerminalShowsEverythingWhole() {
    List<Row> wide = List.of(new Row("x".repeat(300), 1, 2, List.of("t")));
    renderer(OutputFormat.table, 0).report(Report.table(SCHEMA, wide));
    assertThat(out()).contains("x".repeat(300)).doesNotContain("...");
  }

  @Test
  void aReportInATableHasItsPartsApartAndItsNotes() {
    renderer(OutputFormat.table, 0).report(report());
    assertThat(out())
        .isEqualTo(
            String.join(
                    "\n",
                    "NAME   head",
                    "SIZE   1 B",
                    "COUNT  2",
                    "TAGS",
                    "",
                    "Some rows",
                    "NAME           SIZE      COUNT  TAGS",
                    "a,b             5 B  1,234,567  p,q",
                    "say \"hi\"   3.00 MiB          0",
                    "two lines       7 B          1",
                    "",
                    "a note for people")
                + "\n");
  }

  @Test
  void aReportInJsonIsOneDocumentWithoutNotes() throws Exception {
    renderer(OutputFormat.json, 0).report(report());
    JsonNode o = new ObjectMapper().readTree(out());
    assertThat(o.get("name").asText()).isEqualTo("head");
    assertThat(o.get("rows").size()).isEqualTo(3);
    assertThat(out()).doesNotContain("a note for people");
  }

  @Test
  void aReportInCsvIsItsPrimaryTableAndTheRestOnStderr() throws Exception {
    renderer(OutputFormat.csv, 0).report(report());
    List<Map<String, String>> rows = csv(out());
    assertThat(rows).hasSize(3);
    assertThat(rows.get(2).get("name")).isEqualTo("two\nlines");
    assertThat(err()).contains("NAME   head").contains("a note for people");
  }

  @Test
  void aTableAloneIsABareJsonArray() throws Exception {
    renderer(OutputFormat.json, 0).report(Report.table(SCHEMA, rows()));
    assertThat(new ObjectMapper().readTree(out()).isArray()).isTrue();
  }

  @Test
  void rowsDrawnAsOneJsonObject() throws Exception {
    RecordSchema<Map.Entry<String, Long>> counts =
        new RecordSchema<>(
            null,
            List.of(
                Field.of("type", "TYPE", 0, Unit.TEXT, Map.Entry::getKey),
                Field.of("count", "COUNT", 0, Unit.COUNT, Map.Entry::getValue)));
    renderer(OutputFormat.json, 0)
        .report(
            Report.builder()
                .mapRows("byType", null, counts, List.of(Map.entry("A", 3L), Map.entry("B", 1L)))
                .build());
    assertThat(out()).isEqualTo("{\"byType\":{\"A\":3,\"B\":1}}\n");
  }

  private static Report tree() {
    Node leaf = new Node("Leaf", 10, List.of());
    Node mid = new Node("Mid", 50, List.of(leaf));
    return Report.builder()
        .tree(
            "retainers",
            null,
            NODE,
            List.of(mid, new Node("Other", 5, List.of())),
            Node::children,
            "type")
        .build();
  }

  @Test
  void aTreeIndentsInATable() {
    renderer(OutputFormat.table, 0).report(tree());
    assertThat(out().lines())
        .containsExactly("RETAINED  TYPE", "      50  Mid", "      10    Leaf", "       5  Other");
  }

  @Test
  void aTreeNestsInJson() throws Exception {
    renderer(OutputFormat.json, 0).report(tree());
    JsonNode o = new ObjectMapper().readTree(out());
    assertThat(o.get("retainers").get(0).get("children").get(0).get("type").asText())
        .isEqualTo("Leaf");
  }

  @Test
  void aTreeInCsvIsOneRowPerNodeWithItsParent() throws Exception {
    renderer(OutputFormat.csv, 0).report(tree());
    List<Map<String, String>> rows = csv(out());
    assertThat(rows).hasSize(3);
    assertThat(rows.get(1))
        .containsEntry("id", "1")
        .containsEntry("parentId", "0")
        .containsEntry("depth", "1")
        .containsEntry("type", "Leaf");
    assertThat(rows.get(2)).containsEntry("parentId", "").containsEntry("depth", "0");
  }

  @ParameterizedTest
  @EnumSource(OutputFormat.class)
  void everyFormatOfAnEmptyReportIsValid(OutputFormat format) throws Exception {
    renderer(format, 0).report(Report.table(SCHEMA, List.of()));
    switch (format) {
      case json, jsonl -> assertThat(new ObjectMapper().readTree(out()).size()).isZero();
      case csv -> assertThat(out()).isEqualTo("name,sizeBytes,count,tags,exactOnly\n");
      case table -> assertThat(out()).isEmpty();
    }
  }

  @Test
  void bytesAreWrittenInBinaryUnits() {
    assertThat(ByteSize.of(0L)).isEqualTo("0 B");
    assertThat(ByteSize.of(1023L)).isEqualTo("1023 B");
    assertThat(ByteSize.of(530_890L)).isEqualTo("518 KiB");
    assertThat(ByteSize.of(48_109_008L)).isEqualTo("45.9 MiB");
    assertThat(ByteSize.of(5L * 1024 * 1024 * 1024)).isEqualTo("5.00 GiB");
    assertThat(ByteSize.of(-2048L)).isEqualTo("-2.00 KiB");
    for (long b = 1; b > 0 && b < Long.MAX_VALUE / 3; b = b * 3 + 1) {
      assertThat(ByteSize.of(b).length()).isLessThanOrEqualTo(ByteSize.WIDTH);
    }
  }

  private static List<Map<String, String>> csv(String text) throws Exception {
    CsvMapper mapper = new CsvMapper();
    mapper.enable(CsvParser.Feature.WRAP_AS_ARRAY);
    try (MappingIterator<Map<String, String>> it =
        mapper.readerFor(Map.class).with(mapper.schemaWithHeader()).readValues(text)) {
      return it.readAll();
    }
  }
}
