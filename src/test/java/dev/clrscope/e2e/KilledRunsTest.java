package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a clrscope killed with SIGKILL leaves in /tmp (a launched app's port directory, serve's
 * default artifact directory) is removed by the next run that makes such a directory, at once:
 * their names carry their owner's pid, and a dead owner's leftovers are taken whatever their age.
 */
class KilledRunsTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(90);

  private static List<Path> runDirectories(long owner) throws Exception {
    List<Path> out = new ArrayList<>();
    try (DirectoryStream<Path> d =
        Files.newDirectoryStream(Path.of("/tmp"), "clrscope-*" + owner + "-*")) {
      d.forEach(out::add);
    }
    return out;
  }

  /** The pid of the JVM a run of the launcher became (or started). */
  static long jvmOf(RunningCli cli) {
    return cli.process()
        .toHandle()
        .descendants()
        .filter(p -> p.info().command().orElse("").endsWith("/java"))
        .findFirst()
        .map(ProcessHandle::pid)
        .orElse(cli.pid());
  }

  @Test
  void theDirectoriesOfKilledRunsAreSweptByTheNextOne(@TempDir Path dir) throws Exception {
    // serve with its default artifact directory, and a launch-mode run with its port directory,
    // both killed while they run (a run that makes such a directory sweeps first: they are started
    // before either is killed).
    RunningCli serve =
        Clrscope.start(
            Map.of(),
            dir,
            "serve",
            "--listen",
            "127.0.0.1:0",
            "-p",
            Long.toString(ProcessHandle.current().pid()));
    serve.awaitStderr(Pattern.compile("Serving http://127\\.0\\.0\\.1:(\\d+)/"), TIMEOUT);
    long servePid = jvmOf(serve);
    assertThat(runDirectories(servePid))
        .singleElement()
        .satisfies(p -> assertThat(p.getFileName().toString()).startsWith("clrscope-serve-"));
    RunningCli launch =
        Clrscope.start(
            Map.of(),
            dir,
            "gcstats",
            "--",
            "dotnet",
            DotnetApps.dll(DotnetApps.TARGET_APP).toString(),
            "--no-stdin");
    // The launched app's output comes on clrscope's stderr.
    await().atMost(TIMEOUT).until(() -> launch.stderr().contains("\"event\":\"ready\""));
    long launchPid = jvmOf(launch);
    assertThat(runDirectories(launchPid)).hasSize(1);
    launch.signal("KILL");
    launch.process().waitFor();
    serve.signal("KILL");
    serve.process().waitFor();
    assertThat(runDirectories(launchPid)).hasSize(1);
    assertThat(runDirectories(servePid)).hasSize(1);

    // The next launch sweeps both, young as they are.
    CliResult next =
        Clrscope.run(
            TIMEOUT,
            Map.of(),
            dir,
            "info",
            "--",
            "dotnet",
            DotnetApps.dll(DotnetApps.TARGET_APP).toString(),
            "--exit-after-ms",
            "200",
            "--no-stdin");
    assertThat(next.exitCode()).as("%s", next).isZero();
    assertThat(runDirectories(launchPid)).isEmpty();
    assertThat(runDirectories(servePid)).isEmpty();
    launch.close();
    serve.close();
  }
}
