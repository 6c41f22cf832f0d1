package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checks how {@link Clrscope} runs a launcher, with a stand-in script in place of the real one, so
 * that a failure here points at the harness and not at the CLI.
 */
class ClrscopeRunnerTest {
  @TempDir Path dir;

  @Test
  void capturesExitCodeOutputArgumentsEnvironmentAndWorkingDir() throws IOException {
    Path launcher =
        script(
            "echo \"args:$#:$1:$2\"",
            "echo \"env:$CLRSCOPE_E2E_VAR:${HOME-unset}\"",
            "echo \"dir:$(pwd)\"",
            "echo oops >&2",
            "exit 3");
    Map<String, String> env = new HashMap<>();
    env.put("CLRSCOPE_E2E_VAR", "x y");
    env.put("HOME", null);

    CliResult result = Clrscope.run(launcher, Duration.ofSeconds(30), env, dir, "ps", "two words");

    assertThat(result.exitCode()).as("%s", result).isEqualTo(3);
    assertThat(result.stdoutLines())
        .containsExactly("args:2:ps:two words", "env:x y:unset", "dir:" + dir.toRealPath());
    assertThat(result.stderr()).isEqualTo("oops\n");
    assertThat(result.toString()).contains("exited with code 3").contains("oops");
  }

  @Test
  void stdinIsClosedSoReadingItEndsAtOnce() throws IOException {
    Path launcher = script("cat", "echo after-cat");

    CliResult result = Clrscope.run(launcher, Duration.ofSeconds(30), Map.of(), dir);

    assertThat(result.stdout()).isEqualTo("after-cat\n");
  }

  @Test
  void timeoutKillsTheLauncherAndFailsWithItsOutput() throws IOException {
    Path launcher = script("echo started", "sleep 60");

    assertThatThrownBy(() -> Clrscope.run(launcher, Duration.ofSeconds(1), Map.of(), dir))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("did not exit within")
        .hasMessageContaining("started");
  }

  @Test
  void awaitLineWaitsForOutputOfARunningCommand() throws IOException {
    Path launcher =
        script("echo first", "echo '{\"event\":\"ready\",\"pid\":42}' >&2", "read line");

    try (RunningCli cli = Clrscope.start(launcher, Map.of(), dir)) {
      assertThat(cli.awaitLine(line -> line.startsWith("first"), Duration.ofSeconds(30)))
          .isEqualTo("first");
      assertThat(cli.awaitReady(Duration.ofSeconds(30)).pid()).isEqualTo(42);
      cli.sendLine("done");
      assertThat(cli.await(Duration.ofSeconds(30)).exitCode()).isZero();
    }
  }

  private Path script(String... lines) throws IOException {
    Path script = dir.resolve("clrscope");
    Files.writeString(script, "#!/bin/sh\n" + String.join("\n", lines) + "\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    return script;
  }
}
