package dev.clrscope.cli.render;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clrscope.cli.options.OutputFormat;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class TableRendererTest {
  private static final String NL = System.lineSeparator();

  private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
  private final TableRenderer renderer =
      new TableRenderer(new PrintStream(bytes, true, StandardCharsets.UTF_8));

  private String output() {
    return bytes.toString(StandardCharsets.UTF_8);
  }

  private static String lines(String... lines) {
    return String.join(NL, lines) + NL;
  }

  private static Table processes() {
    return new Table(
            List.of(
                Column.text("name", "Name"),
                Column.number("pid", "PID"),
                Column.text("commandLine", "Command")))
        .add("app", 12345, "dotnet app.dll")
        .add("longer-name", 7, null);
  }

  @Test
  void tableAlignsTextLeftAndNumbersRight() {
    renderer.list(processes(), OutputFormat.table);
    assertThat(output())
        .isEqualTo(
            lines(
                "Name           PID  Command",
                "app          12345  dotnet app.dll",
                "longer-name      7  -"));
  }

  @Test
  void tableWithNumericLastColumnAndNullsInTheMiddle() {
    Table t =
        new Table(List.of(Column.text("a", "A"), Column.text("b", "Bee"), Column.number("n", "N")))
            .add(null, "x", 1.5)
            .add("long value", null, null);
    renderer.list(t, OutputFormat.table);
    assertThat(output())
        .isEqualTo(
            lines(
                "A           Bee    N", //
                "-           x    1.5",
                "long value  -      -"));
  }

  @Test
  void emptyTableIsJustTheHeader() {
    renderer.list(
        new Table(List.of(Column.number("pid", "PID"), Column.text("n", "Name"))),
        OutputFormat.table);
    assertThat(output()).isEqualTo(lines("PID  Name"));
  }

  @Test
  void jsonIsAnArrayOfObjectsKeyedByColumnKey() throws Exception {
    renderer.list(processes(), OutputFormat.json);
    assertThat(output())
        .isEqualTo(
            "[{\"name\":\"app\",\"pid\":12345,\"commandLine\":\"dotnet app.dll\"},"
                + "{\"name\":\"longer-name\",\"pid\":7,\"commandLine\":null}]"
                + NL);
    JsonNode parsed = new ObjectMapper().readTree(output());
    assertThat(parsed.isArray()).isTrue();
    assertThat(parsed.get(1).get("commandLine").isNull()).isTrue();
  }

  @Test
  void jsonOfAwkwardValuesIsValid() throws Exception {
    Table t =
        new Table(List.of(Column.text("s", "S"), Column.number("d", "D")))
            .add("quote \" backslash \\ newline \n tab \t bell \u0007", Double.NaN)
            .add("ok", Double.POSITIVE_INFINITY);
    renderer.list(t, OutputFormat.json);
    assertThat(output())
        .isEqualTo(
            "[{\"s\":\"quote \\\" backslash \\\\ newline \\n tab \\t bell \\u0007\",\"d\":null},"
                + "{\"s\":\"ok\",\"d\":null}]"
                + NL);
    JsonNode parsed = new ObjectMapper().readTree(output());
    assertThat(parsed.get(0).get("s").asText())
        .isEqualTo("quote \" backslash \\ newline \n tab \t bell \u0007");
  }

  @Test
  void emptyJsonListIsAnEmptyArray() {
    renderer.list(new Table(List.of(Column.text("a", "A"))), OutputFormat.json);
    assertThat(output()).isEqualTo("[]" + NL);
  }

  @Test
  void csvHasAHeaderOfKeysAndQuotesWhatNeedsIt() {
    Table t =
        new Table(List.of(Column.text("a", "A"), Column.number("n", "N"), Column.text("b", "B")))
            .add("x,y", 1, "say \"hi\"")
            .add("two\nlines", null, "cr\rhere")
            .add("plain", 2.5, "");
    renderer.list(t, OutputFormat.csv);
    assertThat(output())
        .isEqualTo(
            lines(
                "a,n,b",
                "\"x,y\",1,\"say \"\"hi\"\"\"",
                "\"two\nlines\",,\"cr\rhere\"",
                "plain,2.5,"));
  }

  @Test
  void recordAsLabelledLines() {
    Table t =
        new Table(
                List.of(
                    Column.number("pid", "Process ID"),
                    Column.text("os", "OS"),
                    Column.text("rid", "RID")))
            .add(42, "Linux", null);
    renderer.record(t, OutputFormat.table);
    assertThat(output()).isEqualTo(lines("Process ID  42", "OS          Linux", "RID         -"));
  }

  @Test
  void recordAsJsonObject() throws Exception {
    Table t =
        new Table(List.of(Column.number("pid", "Process ID"), Column.text("rid", "RID")))
            .add(42L, null);
    renderer.record(t, OutputFormat.json);
    assertThat(output()).isEqualTo("{\"pid\":42,\"rid\":null}" + NL);
    assertThat(new ObjectMapper().readTree(output()).get("pid").asLong()).isEqualTo(42);
  }

  @Test
  void recordAsCsv() {
    Table t =
        new Table(List.of(Column.number("pid", "Process ID"), Column.text("cmd", "Command")))
            .add(42, "a, b");
    renderer.record(t, OutputFormat.csv);
    assertThat(output()).isEqualTo(lines("pid,cmd", "42,\"a, b\""));
  }

  @Test
  void recordNeedsExactlyOneRow() {
    assertThatThrownBy(() -> renderer.record(processes(), OutputFormat.table))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("a record is a table with one row");
    assertThatThrownBy(
            () -> renderer.record(new Table(List.of(Column.text("a", "A"))), OutputFormat.json))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(output()).isEmpty();
  }

  @Test
  void rowsMustMatchTheColumns() {
    Table t = new Table(List.of(Column.text("a", "A"), Column.text("b", "B")));
    assertThatThrownBy(() -> t.add("only one"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("expected 2 values, got 1");
    assertThat(t.rows()).isEmpty();
    assertThat(Column.number("k", "L")).isEqualTo(new Column("k", "L", true));
    assertThat(Column.text("k", "L").numeric()).isFalse();
  }
}
