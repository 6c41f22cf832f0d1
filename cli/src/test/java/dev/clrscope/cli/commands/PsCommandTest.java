package dev.clrscope.cli.commands;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clrscope.cli.render.OutputFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Which {@code ps} command lines run without the parser: nothing or one valid {@code --format}, in
 * each spelling the parser takes. Anything else goes to the parser, which owns help, logging and
 * usage errors.
 */
class PsCommandTest {
  @Test
  void nothingOrOneValidFormatNeedsNoParser() {
    assertThat(PsCommand.plainFormat(List.of())).isEqualTo(OutputFormat.table);
    assertThat(PsCommand.plainFormat(List.of("--format", "json"))).isEqualTo(OutputFormat.json);
    assertThat(PsCommand.plainFormat(List.of("--format=csv"))).isEqualTo(OutputFormat.csv);
    assertThat(PsCommand.plainFormat(List.of("--format:table"))).isEqualTo(OutputFormat.table);
  }

  @Test
  void everythingElseGoesToTheParser() {
    for (List<String> rest :
        List.of(
            List.of("--format", "JSON"),
            List.of("--format"),
            List.of("--format="),
            List.of("--format", "json", "--format", "csv"),
            List.of("--format", "json", "-v"),
            List.of("-v"),
            List.of("--help"),
            List.of("-h"),
            List.of("--version"),
            List.of("--log-file", "x.log"),
            List.of("--", "--format", "json"),
            List.of("--forma", "json"),
            List.of("json"))) {
      assertThat(PsCommand.plainFormat(rest)).as("%s", rest).isNull();
    }
  }
}
