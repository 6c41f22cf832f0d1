package dev.clrscope.cli.commands.heap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;

/**
 * dotnet-gcdump 10 command lines ({@code collect -p PID -o FILE -t SECONDS --buffersize MB}, {@code
 * report FILE}) and what clrscope makes of each.
 */
class DotnetGcdumpCompatibilityTest {
  private static DumpHeapCollectCommand collect(String... args) {
    DumpHeapCollectCommand cmd = new DumpHeapCollectCommand();
    new CommandLine(cmd).parseArgs(args);
    cmd.validate();
    return cmd;
  }

  @Test
  void timeoutIsHowLongTheWholeSnapshotMayTake() {
    assertThat(collect("-p", "1", "-t", "45").walkLimit()).isEqualTo(Duration.ofSeconds(45));
    assertThat(collect("-p", "1", "--timeout", "90").walkLimit()).isEqualTo(Duration.ofSeconds(90));
    // --duration, clrscope's own, wins; neither: a minute.
    assertThat(collect("-p", "1", "-t", "45", "--duration", "2m").walkLimit())
        .isEqualTo(Duration.ofMinutes(2));
    assertThat(collect("-p", "1").walkLimit()).isEqualTo(Duration.ofMinutes(1));
  }

  @Test
  void outputAndBufferSizeMeanWhatTheyMeanThere() {
    DumpHeapCollectCommand c = collect("-p", "1", "-o", "app.gcdump", "--buffersize", "512");
    assertThat(c.output).isEqualTo(Path.of("app.gcdump"));
    assertThat(c.bufferSize.megabytes()).isEqualTo(512);
    // dotnet-gcdump's own default buffer when none is given.
    assertThat(collect("-p", "1").bufferSize.megabytes()).isEqualTo(1024);
  }

  @Test
  void aBufferSizeThatIsNotPositiveIsAUsageError() {
    assertThatThrownBy(() -> collect("-p", "1", "--buffersize", "0"))
        .isInstanceOf(ParameterException.class)
        .hasMessageContaining("--buffersize must be a positive number of MB");
  }
}
