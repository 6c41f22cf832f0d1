package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** {@code clrscope perfmap}: the runtime starts and stops writing perf maps. */
class PerfMapCommandTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  @Test
  void enableWritesThePerfMapAndDisableStops() throws Exception {
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      String pid = Long.toString(target.pid());
      Path map = Path.of("/tmp/perf-" + pid + ".map");
      try {
        CliResult enable = Clrscope.run(TIMEOUT, "perfmap", "-p", pid, "--enable", "perfmap");
        assertThat(enable.exitCode()).as("%s", enable).isZero();
        assertThat(enable.stderr()).contains("/tmp/perf-" + pid + ".map");
        // Methods compiled from now on are listed: make the app JIT something new.
        target.send("throw 1");
        assertThat(map).exists();
        assertThat(Files.readString(map)).contains("TargetApp");

        CliResult disable = Clrscope.run(TIMEOUT, "perfmap", "-p", pid, "--disable");
        assertThat(disable.exitCode()).as("%s", disable).isZero();
        long size = Files.size(map);
        target.send("gc 1");
        target.send("hold Widget 3");
        assertThat(Files.size(map)).isEqualTo(size);
      } finally {
        Files.deleteIfExists(map);
      }
    }
  }
}
