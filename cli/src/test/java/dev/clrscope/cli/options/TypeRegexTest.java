package dev.clrscope.cli.options;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clrscope.cli.CliRun;
import dev.clrscope.cli.SharedFixtures;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** {@code --type}: a backtracking expression ends in a usage error within its limit, not never. */
class TypeRegexTest {
  @Test
  void aCatastrophicallyBacktrackingTypeIsAUsageErrorWithinItsLimit() {
    long started = System.nanoTime();
    CliRun r =
        CliRun.of(
            "dump-heap",
            "report",
            SharedFixtures.of("gcdump", "widget.gcdump").toString(),
            "--type",
            "^(([a-zA-Z.]+)*)*Z$");
    Duration took = Duration.ofNanos(System.nanoTime() - started);

    assertThat(r.exit()).as("%s", r).isEqualTo(2);
    assertThat(r.err())
        .startsWith(
            "clrscope dump-heap report: --type ^(([a-zA-Z.]+)*)*Z$ took over 1 s to match one type"
                + " name (")
        .contains(
            "): it backtracks without end, as a repetition inside a repetition such as (a+)* does;"
                + " write it without one");
    assertThat(took).isLessThan(Duration.ofSeconds(10));
  }

  @Test
  void aSaneTypeStillSelects() {
    CliRun r =
        CliRun.of(
            "dump-heap",
            "report",
            SharedFixtures.of("gcdump", "widget.gcdump").toString(),
            "--type",
            "^Widget$",
            "--format",
            "csv");
    assertThat(r.exit()).as("%s", r).isZero();
    assertThat(r.out().lines().skip(1).toList()).singleElement().asString().contains("Widget");
  }
}
