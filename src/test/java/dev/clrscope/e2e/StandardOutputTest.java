package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Standard output that fails: a full disk is never a success, and a reader that goes away ({@code |
 * head}) ends even a live command, its session stopped cleanly.
 */
class StandardOutputTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  @TempDir Path dir;

  /** A private full device ({@code mknod FILE c 1 7}; never /dev/full itself). Needs root. */
  private Path fullDevice() throws Exception {
    Path full = dir.resolve("full");
    Process mknod = new ProcessBuilder("mknod", full.toString(), "c", "1", "7").start();
    assertThat(mknod.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(mknod.exitValue()).as("mknod needs root, which CI has").isZero();
    return full;
  }

  @Test
  void standardOutputOnAFullDiskIsAFailureThatSaysSo() throws Exception {
    Path full = fullDevice();
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      for (String[] args :
          new String[][] {
            {"ps"}, {"info", "-p", Long.toString(target.pid())}, {"trace", "list-profiles"}
          }) {
        Process p =
            new ProcessBuilder(Clrscope.command(args))
                .redirectOutput(full.toFile())
                .redirectErrorStream(false)
                .start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String command = "clrscope " + (args[0].equals("trace") ? "trace list-profiles" : args[0]);
        assertThat(p.exitValue()).as(err).isEqualTo(1);
        // ps speaks of every runtime on the machine: other tests' may add their own warnings.
        assertThat(err.lines())
            .contains(
                command
                    + ": could not write to standard output: No space left on device; what it"
                    + " printed is incomplete");
      }
    }
  }

  @Test
  void countersCollectIntoAFullFileFailsAtOnceAndSaysSo() throws Exception {
    Path full = fullDevice();
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      for (String format : new String[] {"csv", "json"}) {
        CliResult r =
            Clrscope.run(
                TIMEOUT,
                "counters",
                "collect",
                "-p",
                Long.toString(target.pid()),
                "--format",
                format,
                "-o",
                full.toString(),
                "--duration",
                "60s");
        assertThat(r.exitCode()).as("%s", r).isEqualTo(1);
        assertThat(r.stderr())
            .contains(
                "clrscope counters collect: could not write "
                    + full
                    + ": No space left on device (after 0 records)");
      }
      assertThat(target.send("ping").get("event").asText()).isEqualTo("pong");
    }
  }

  @Test
  void aReaderThatGoesAwayEndsALiveCommandAndItsSession() throws Exception {
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      Process cli =
          new ProcessBuilder(
                  Clrscope.command("gcstats", "-p", Long.toString(target.pid()), "--format", "csv"))
              .redirectError(dir.resolve("err.txt").toFile())
              .start();
      BufferedReader out =
          new BufferedReader(new InputStreamReader(cli.getInputStream(), StandardCharsets.UTF_8));
      assertThat(out.readLine()).startsWith("startUtc,gc,");
      // The reader leaves, as head does after its lines.
      out.close();
      await()
          .atMost(TIMEOUT)
          .until(
              () -> {
                if (cli.isAlive()) {
                  target.send("gc 1");
                }
                return !cli.isAlive();
              });
      assertThat(cli.exitValue()).isEqualTo(141);
      String err = Files.readString(dir.resolve("err.txt"));
      assertThat(err).contains("(stopped: standard output was closed)").doesNotContain("Exception");
      assertThat(target.send("ping").get("event").asText()).isEqualTo("pong");
    }
  }
}
