package dev.clrscope.cli.commands.exceptions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clrscope.cli.CliRun;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code exceptions} and {@code contention} take a saved trace where a target would be: a lone
 * {@code .nettrace} argument is a file to read, the same after {@code --} a command to launch, and
 * option mistakes are usage errors before anything is read.
 */
class SavedTraceArgumentTest {
  @Test
  void aLoneNettraceArgumentIsAFileToRead(@TempDir Path dir) {
    Path missing = dir.resolve("missing.nettrace");
    CliRun run = CliRun.of("exceptions", missing.toString());

    assertThat(run.exit()).as("%s", run).isEqualTo(1);
    assertThat(run.err().strip()).isEqualTo("clrscope exceptions: no such file: " + missing);
    assertThat(run.out()).isEmpty();
  }

  @Test
  void afterTwoDashesItIsACommandToLaunch(@TempDir Path dir) {
    Path missing = dir.resolve("missing.nettrace");
    CliRun run = CliRun.of("contention", "--", missing.toString());

    assertThat(run.exit()).as("%s", run).isEqualTo(1);
    assertThat(run.err()).startsWith("clrscope contention: could not start " + missing);
  }

  @Test
  void optionMistakesAreUsageErrorsBeforeTheFileIsRead(@TempDir Path dir) {
    String file = dir.resolve("missing.nettrace").toString();

    CliRun regex = CliRun.of("exceptions", file, "--type", "[a-");
    assertThat(regex.exit()).as("%s", regex).isEqualTo(2);
    assertThat(regex.err()).startsWith("clrscope exceptions: --type is not a regular expression: ");

    CliRun unit = CliRun.of("contention", file, "--min-duration", "30");
    assertThat(unit.exit()).as("%s", unit).isEqualTo(2);
    assertThat(unit.err()).contains("'30' has no unit");
  }
}
