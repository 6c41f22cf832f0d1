package dev.clrscope.cli.commands;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clrscope.cli.CliRun;
import dev.clrscope.heapwalk.TypeStatistics;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The training run's stand-in runtime answers as a runtime does for a heap snapshot, so that the
 * build's training run really takes one (and the archive holds what that loads): {@code dump-heap
 * collect} through it writes a file with the small walk's 3,003 objects, and {@code dump-heap}
 * reports them.
 */
class TrainingRuntimeTest {
  @Test
  void aSnapshotTakenFromTheStandInHoldsItsWalk(@TempDir Path dir) throws Exception {
    Path socket = dir.resolve("runtime.sock");
    Path file = dir.resolve("walk.gcdump");
    try (TrainingRuntime stand = TrainingRuntime.listen(socket)) {
      CliRun collect =
          CliRun.of(
              "dump-heap",
              "collect",
              "--diagnostic-port",
              socket + ",connect",
              "-o",
              file.toString());
      assertThat(collect.exit()).as("%s", collect).isZero();
      assertThat(collect.err()).contains("walked 3,003 objects, 93.8 KiB");
      assertThat((Path) collect.report().record()).isEqualTo(file.toAbsolutePath());

      CliRun live =
          CliRun.of(
              "dump-heap",
              "--diagnostic-port",
              socket + ",connect",
              "--format",
              "csv",
              "--top",
              "0");
      assertThat(live.exit()).as("%s", live).isZero();
      assertThat(live.report().<TypeStatistics>rows("types"))
          .contains(new TypeStatistics("Item", 3000, 72000, 72000));
      // CSV carries the exact numbers.
      assertThat(live.out()).contains("3000,72000,72000,Item");
    }
    CliRun report = CliRun.of("dump-heap", "report", file.toString(), "--top", "0");
    assertThat(report.exit()).as("%s", report).isZero();
    assertThat(report.report().<TypeStatistics>rows("types"))
        .contains(
            new TypeStatistics("Item", 3000, 72000, 72000),
            new TypeStatistics("Item[]", 1, 24024, 96058));
  }
}
