package dev.clrscope.cli.commands.analyze;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clrscope.cli.render.JsonText;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class OneLineJsonTest {
  @Test
  void eachDocumentIsOneLineAndStringsKeepTheirEscapedBreaks() throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    OneLineJson json = new OneLineJson(bytes);
    PrintStream out = new PrintStream(json, true, StandardCharsets.UTF_8);
    out.print("{\"records\":[\n");
    out.print(JsonText.of(Map.of("message", "two\nlines")));
    out.println("\n]}");
    out.flush();
    json.endLine();
    json.endLine(); // nothing written since: no empty line
    out.println(JsonText.of(List.of(1, 2)));
    out.flush();
    json.endLine();
    assertThat(bytes.toString(StandardCharsets.UTF_8))
        .isEqualTo("{\"records\":[{\"message\":\"two\\nlines\"}]}\n[1,2]\n");
  }
}
