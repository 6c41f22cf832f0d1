package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code clrscope ps} and name resolution against real running apps. */
class PsCommandTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  private static JsonNode rowFor(JsonNode rows, long pid) {
    for (JsonNode row : rows) {
      if (row.get("pid").asLong() == pid) {
        return row;
      }
    }
    throw new AssertionError("ps does not list pid " + pid + ": " + rows);
  }

  @Test
  void listsTheAppWithItsExactPidCommandLineAndRuntime() {
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP, "ps-marker")) {
      ReadyInfo ready = target.ready();

      CliResult result = Clrscope.run(TIMEOUT, "ps", "--format", "json");

      assertThat(result.exitCode()).as("%s", result).isZero();
      JsonNode row = rowFor(result.stdoutJson(), target.pid());
      assertThat(row.get("commandLine").asText())
          .isEqualTo(String.join(" ", DotnetApps.command(DotnetApps.TARGET_APP, "ps-marker")));
      assertThat(row.get("runtimeVersion").asText()).isEqualTo(ready.runtimeVersion());
      assertThat(row.get("entrypoint").asText()).isEqualTo("TargetApp");
      assertThat(row.get("os").asText()).isEqualTo(ready.os());
      assertThat(row.get("arch").asText()).isEqualTo(ready.arch());
      assertThat(row.get("rid").asText()).isEqualTo(ready.rid());
      assertThat(row.get("state").asText()).isEqualTo("running");
    }
  }

  /**
   * A runtime with a TMPDIR of its own is found through the table of bound sockets, and a dead
   * socket file with its pid in the default /tmp (a killed runtime's leftover) is not taken for it.
   */
  @Test
  void findsARuntimeInItsOwnTmpdirAndPassesOverADeadSocketWithItsPid(@TempDir Path tmp)
      throws IOException {
    try (TargetProcess target =
        TargetProcess.start(DotnetApps.TARGET_APP, List.of(), Map.of("TMPDIR", tmp.toString()))) {
      target.ready();
      Path dead = Path.of("/tmp", "dotnet-diagnostic-" + target.pid() + "-1-socket");
      Files.deleteIfExists(dead);
      Files.createFile(dead);
      try {
        CliResult ps = Clrscope.run(TIMEOUT, "ps", "--format", "json");
        CliResult info = Clrscope.run(TIMEOUT, "info", "-p", Long.toString(target.pid()), "-v");

        assertThat(ps.exitCode()).as("%s", ps).isZero();
        assertThat(rowFor(ps.stdoutJson(), target.pid()).get("entrypoint").asText())
            .isEqualTo("TargetApp");
        assertThat(info.exitCode()).as("%s", info).isZero();
        assertThat(info.stderr()).contains(tmp.toString()).doesNotContain(dead.toString());
      } finally {
        Files.deleteIfExists(dead);
      }
    }
  }

  /**
   * {@code ps} with only a format runs without the parser; with {@code -v} it is parsed as every
   * command is. Both list the app alike, and logs go to stderr only.
   */
  @Test
  void theRunWithoutTheParserListsWhatTheParsedRunLists() {
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      target.ready();

      CliResult plain = Clrscope.run(TIMEOUT, "ps", "--format:json");
      CliResult parsed = Clrscope.run(TIMEOUT, "ps", "--format", "json", "-v");

      assertThat(plain.exitCode()).as("%s", plain).isZero();
      assertThat(parsed.exitCode()).as("%s", parsed).isZero();
      String socketLine = "DEBUG ipc.discovery.EndpointLocator - pid " + target.pid() + ": socket";
      assertThat(plain.stderr()).doesNotContain("DEBUG");
      assertThat(parsed.stderr()).contains(socketLine);
      assertThat(rowFor(plain.stdoutJson(), target.pid()))
          .isEqualTo(rowFor(parsed.stdoutJson(), target.pid()));
    }
  }

  @Test
  void tableAndCsvShowTheSameProcess() {
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      String pid = Long.toString(target.pid());

      CliResult table = Clrscope.run(TIMEOUT, "ps");
      CliResult csv = Clrscope.run(TIMEOUT, "ps", "--format", "csv");

      assertThat(table.exitCode()).as("%s", table).isZero();
      assertThat(table.stdoutLines().get(0))
          .matches(" *PID  NAME +RUNTIME +ENTRYPOINT .*COMMAND LINE");
      assertThat(table.stdoutLines()).anyMatch(l -> l.strip().startsWith(pid + " "));
      assertThat(csv.exitCode()).as("%s", csv).isZero();
      assertThat(csv.stdoutLines().get(0))
          .isEqualTo("pid,name,runtimeVersion,entrypoint,os,arch,rid,state,commandLine");
      assertThat(csv.stdoutLines()).anyMatch(l -> l.startsWith(pid + ",dotnet,"));
    }
  }

  @Test
  void aUniqueNameFindsTheAppAndAnAmbiguousOneListsTheCandidates(@TempDir Path dir)
      throws IOException {
    // A copy of the app whose apphost has a name no other process on the machine has.
    String name = "nt" + (100000 + new Random().nextInt(900000));
    Path app = dir.resolve("app");
    Files.createDirectories(app);
    try (Stream<Path> files = Files.list(DotnetApps.dll(DotnetApps.TARGET_APP).getParent())) {
      for (Path f : (Iterable<Path>) files::iterator) {
        String file = f.getFileName().toString();
        Path to = app.resolve(file.equals("TargetApp") ? name : file);
        Files.copy(f, to, StandardCopyOption.COPY_ATTRIBUTES);
      }
    }
    List<String> command = List.of(app.resolve(name).toString());
    try (TargetProcess one = TargetProcess.startCommand(name, command, Map.of())) {
      CliResult byName = Clrscope.run(TIMEOUT, "info", "-n", name, "--format", "json");
      assertThat(byName.exitCode()).as("%s", byName).isZero();
      assertThat(byName.stdoutJson().get("pid").asLong()).isEqualTo(one.pid());

      try (TargetProcess two = TargetProcess.startCommand(name, command, Map.of())) {
        String upper = name.toUpperCase(Locale.ROOT);
        CliResult ambiguous = Clrscope.run(TIMEOUT, "info", "-n", upper);

        assertThat(ambiguous.exitCode()).as("%s", ambiguous).isEqualTo(1);
        List<String> err = ambiguous.stderr().lines().toList();
        assertThat(err).hasSize(1);
        assertThat(err.get(0))
            .startsWith("clrscope info: 2 .NET processes are named '" + upper + "': ")
            .contains(one.pid() + " (" + app.resolve(name) + ")")
            .contains(two.pid() + " (" + app.resolve(name) + ")")
            .endsWith("; choose one with -p PID");
      }
    }
  }
}
