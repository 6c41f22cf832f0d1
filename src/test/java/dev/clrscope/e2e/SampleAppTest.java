package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The README quick start promises what SampleApp does; this keeps the promise true. */
class SampleAppTest {
  @Test
  void runsItsThreeStepsAndExitsWithZero() {
    try (Subprocess sample =
        Subprocess.start(DotnetApps.command(DotnetApps.SAMPLE_APP), Map.of(), null)) {
      assertThat(sample.waitFor(Duration.ofSeconds(60))).as("%s", sample.describe()).isTrue();

      assertThat(sample.process().exitValue()).as("%s", sample.describe()).isZero();
      assertThat(sample.stdout())
          .contains("SampleApp pid " + sample.process().pid())
          .contains("step 1/3")
          .contains("step 3/3");
    }
  }
}
