package dev.clrscope.cli.commands.gc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clrscope.cli.CliRun;
import dev.clrscope.cli.SharedFixtures;
import dev.clrscope.cli.render.Summarized;
import dev.clrscope.monitor.gc.GcSummary;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code gcstats} of a saved trace. */
class GcStatsCommandTest {
  /** A trace of thread samples alone: no GC, so no chart, and it says so. */
  @Test
  void aChartOfNoGcIsNotWrittenAndItSaysSo(@TempDir Path dir) {
    Path trace = SharedFixtures.of("pyroscope", "dotnet-5.0-SampleProfiler-single-thread.nettrace");
    Path chart = dir.resolve("gcs.svg");
    CliRun r = CliRun.of("gcstats", trace.toString(), "--chart", chart.toString());
    assertThat(r.exit()).as("%s", r).isZero();
    assertThat(r.streamed().records()).isEmpty();
    Summarized<GcSummary> summary = r.streamed().summary().record();
    assertThat(summary.s().gcs()).isZero();
    assertThat(r.err())
        .contains("clrscope gcstats: no GC was seen, so no chart was written (" + chart + ")")
        .doesNotContain("Chart written");
    assertThat(chart).doesNotExist();
    assertThat(dir).isEmptyDirectory();
  }
}
