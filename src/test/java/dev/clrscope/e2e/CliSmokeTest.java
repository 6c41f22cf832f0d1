package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The harness driving the real CLI once each way (attach by pid, launch with {@code --}): the
 * template for command tests, and the proof that launcher, apps and harness fit together.
 */
class CliSmokeTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  @Test
  void infoByPidReportsWhatTheTargetSaysAboutItself() {
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      ReadyInfo ready = target.ready();

      CliResult result =
          Clrscope.run(TIMEOUT, "info", "-p", Long.toString(target.pid()), "--format", "json");

      assertThat(result.exitCode()).as("%s", result).isZero();
      JsonNode info = result.stdoutJson();
      assertThat(info.get("pid").asLong()).isEqualTo(ready.pid());
      assertThat(info.get("entrypointAssembly").asText()).isEqualTo(ready.entrypoint());
      assertThat(info.get("runtimeVersion").asText()).isEqualTo(ready.runtimeVersion());
      assertThat(info.get("os").asText()).isEqualTo(ready.os());
      assertThat(info.get("arch").asText()).isEqualTo(ready.arch());
      assertThat(info.get("runtimeIdentifier").asText()).isEqualTo(ready.rid());
      // The runtime's command line starts with the host; TargetApp's own starts at the dll.
      assertThat(info.get("commandLine").asText())
          .isEqualTo(ready.processPath() + " " + ready.commandLine());
    }
  }

  @Test
  void infoOfALaunchedAppExitsWithTheAppsExitCode() throws Exception {
    List<String> app =
        DotnetApps.command(
            DotnetApps.TARGET_APP, "--no-stdin", "--exit-after-ms", "500", "--exit-code", "4");
    List<String> args = new ArrayList<>(List.of("info", "--format", "json", "--"));
    args.addAll(app);

    CliResult result = Clrscope.run(TIMEOUT, args.toArray(String[]::new));

    assertThat(result.exitCode()).as("%s", result).isEqualTo(4);
    // The app's lines come on stderr; stdout is clrscope's one JSON document.
    ReadyInfo ready =
        ReadyInfo.findIn(result.stderr()).orElseThrow(() -> new AssertionError(result));
    JsonNode info = TargetProcess.JSON.readTree(result.stdout());
    assertThat(info.get("pid").asLong()).isEqualTo(ready.pid());
    assertThat(info.get("entrypointAssembly").asText()).isEqualTo("TargetApp");
  }

  /** A launcher linked from a directory on PATH finds its checkout through the link. */
  @Test
  void theLauncherReachedThroughASymbolicLinkFindsItsJar(@TempDir Path bin) throws Exception {
    Path link = Files.createSymbolicLink(bin.resolve("clrscope"), Clrscope.launcher());
    Path chained = Files.createSymbolicLink(bin.resolve("cs"), link);
    for (Path l : List.of(link, chained)) {
      CliResult r = Clrscope.run(l, TIMEOUT, Map.of(), bin, "--version");
      assertThat(r.exitCode()).as("%s", r).isZero();
      assertThat(r.stdout()).startsWith("clrscope ");
      assertThat(r.stderr()).doesNotContain("missing");
    }
  }

  /** The CLI's and the app's lines share stdout; their order is not part of the contract. */
  private static JsonNode jsonLineWith(String field, CliResult result) {
    for (String line : result.stdoutLines()) {
      try {
        JsonNode node = TargetProcess.JSON.readTree(line);
        if (node.has(field)) {
          return node;
        }
      } catch (JsonProcessingException e) {
        // Not a JSON line; keep looking.
      }
    }
    throw new AssertionError("No JSON line with " + field + ": " + result);
  }
}
