package dev.clrscope.cli.render;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clrscope.cli.render.Field.Shown;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RecordStreamTest {
  private record Row(String name, long bytes, List<String> tags) {}

  private static final RecordSchema<Row> SCHEMA =
      new RecordSchema<>(
          "row",
          List.of(
              Field.of("name", "NAME", 6, Unit.TEXT, Row::name),
              Field.of("sizeBytes", "SIZE", 6, Unit.BYTES, Row::bytes),
              Field.<Row>of("tags", "TAGS", 0, Unit.WORDS, Row::tags),
              Field.<Row>data("exactOnly", Unit.COUNT, r -> null).optional()));

  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();

  private RecordStream<Row> stream(RecordStream.Form form) {
    return new RecordStream<>(new PrintStream(bytes, true, StandardCharsets.UTF_8), SCHEMA, form);
  }

  private String text() {
    return bytes.toString(StandardCharsets.UTF_8);
  }

  @Test
  void aJsonDocumentWithNoRecordsIsStillValid() throws Exception {
    RecordStream<Row> s = stream(RecordStream.Form.JSON_DOCUMENT);
    s.start(Map.of("pid", 7), "rows");
    s.finish(Map.of("stopReason", "Ctrl+C"));
    JsonNode o = new ObjectMapper().readTree(text());
    assertThat(o.get("pid").asInt()).isEqualTo(7);
    assertThat(o.get("rows").size()).isZero();
    assertThat(o.get("stopReason").asText()).isEqualTo("Ctrl+C");
  }

  @Test
  void aJsonDocumentHoldsEveryRecordInOrder() throws Exception {
    RecordStream<Row> s = stream(RecordStream.Form.JSON_DOCUMENT);
    s.write(new Row("a", 1, List.of()));
    s.write(new Row("b", 2048, List.of("x", "y")));
    s.finish(Map.of());
    JsonNode o = new ObjectMapper().readTree(text());
    assertThat(o.get("records").get(1).get("name").asText()).isEqualTo("b");
    assertThat(o.get("records").get(1).get("tags").get(1).asText()).isEqualTo("y");
    assertThat(o.get("records").get(0).has("exactOnly")).as("optional, absent").isFalse();
    assertThat(s.written()).isEqualTo(2);
  }

  @Test
  void csvQuotesWhatNeedsQuotingAndNothingElse() {
    RecordStream<Row> s = stream(RecordStream.Form.CSV);
    s.write(new Row("a,b", 5, List.of("p", "q")));
    s.write(new Row("say \"hi\"", 6, List.of()));
    s.write(new Row("two\nlines", 7, List.of()));
    assertThat(text())
        .isEqualTo(
            "name,sizeBytes,tags,exactOnly\n"
                + "\"a,b\",5,p q,\n"
                + "\"say \"\"hi\"\"\",6,,\n"
                + "\"two\nlines\",7,,\n");
  }

  @Test
  void tableCellsAreShortAndAligned() {
    RecordStream<Row> s = stream(RecordStream.Form.TABLE);
    s.write(new Row("a", 3 * 1024 * 1024, List.of("p", "q")));
    assertThat(text().lines()).containsExactly("NAME      SIZE  TAGS", "a         3.0M  p,q");
  }

  @Test
  void onlyNamesTheFormatsThatShowAField() {
    Field<Row> jsonOnly = Field.<Row>data("k", Unit.COUNT, Row::bytes).only(Shown.JSON);
    RecordSchema<Row> schema = new RecordSchema<>(null, List.of(jsonOnly));
    assertThat(schema.csvHeader()).isEmpty();
    assertThat(schema.jsonObject(new Row("a", 9, List.of()))).containsEntry("k", 9L);
  }
}
