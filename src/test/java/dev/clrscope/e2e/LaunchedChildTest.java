package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A child launched with {@code -- COMMAND} lives no longer than clrscope: the user's stop signal is
 * passed on to it, a killed clrscope takes it along, and the private directory of its port is
 * always removed.
 */
class LaunchedChildTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  /** The private port directories clrscope makes for launched children. */
  private static Set<Path> privateDirs() throws IOException {
    try (Stream<Path> s = Files.list(Path.of("/tmp"))) {
      return s.filter(p -> p.getFileName().toString().startsWith("clrscope-"))
          .collect(Collectors.toSet());
    }
  }

  private static RunningCli launch(String... command) {
    List<String> args = new ArrayList<>(List.of(command));
    args.add("--");
    args.addAll(
        DotnetApps.command(DotnetApps.TARGET_APP, "--no-stdin", "--exit-after-ms", "600000"));
    return Clrscope.start(Map.of(), Clrscope.root(), args.toArray(String[]::new));
  }

  private static void assertGone(long pid) {
    await().atMost(TIMEOUT).until(() -> ProcessHandle.of(pid).map(p -> !p.isAlive()).orElse(true));
  }

  @Test
  void aStopSignalEndsTheSessionAndIsPassedOnToTheChild() throws Exception {
    Set<Path> before = privateDirs();
    try (RunningCli cli = launch("gcstats")) {
      long child = cli.awaitReady(TIMEOUT).pid();
      await().atMost(TIMEOUT).until(() -> cli.stderr().contains("Watching the GCs"));
      cli.signal("TERM");
      CliResult result = cli.await(TIMEOUT);

      assertThat(result.stderr())
          .contains(
              "Passing SIGTERM on to the launched app (pid " + child + "); it has 10 s to exit.");
      assertThat(result.stdout()).contains("Watched").contains("(stopped: SIGTERM)");
      assertGone(child);
    }
    assertThat(privateDirs()).isSubsetOf(before);
  }

  @Test
  void aCommandWaitingForItsChildEndsItOnASignalAndLeavesNothing() throws Exception {
    Set<Path> before = privateDirs();
    try (RunningCli cli = launch("info", "--format", "json")) {
      long child = cli.awaitReady(TIMEOUT).pid();
      // info has answered and now waits for the app, as under `-- COMMAND` every command does.
      await().atMost(TIMEOUT).until(() -> cli.stdout().contains("\"entrypointAssembly\""));
      cli.signal("TERM");
      CliResult result = cli.await(TIMEOUT);

      assertThat(result.exitCode()).as("%s", result).isEqualTo(143);
      assertGone(child);
    }
    assertThat(privateDirs()).isSubsetOf(before);
  }

  /**
   * A killed clrscope takes its child along; the port directory it could not remove (named for it,
   * {@code clrscope-PID-RANDOM}) is swept by the next launch, its owner being dead. Other runs on
   * this machine make such directories too: only the killed run's own counts.
   */
  @Test
  void aKilledClrscopeTakesItsChildAlongAndTheNextLaunchSweepsItsPort() throws Exception {
    Set<Path> before = privateDirs();
    Set<Path> leftOver = new HashSet<>();
    try (RunningCli cli = launch("gcstats")) {
      long child = cli.awaitReady(TIMEOUT).pid();
      String mine = "clrscope-" + KilledRunsTest.jvmOf(cli) + "-";
      cli.signal("KILL");
      // The parent-death signal (SIGTERM) ends the child: it never outlives clrscope.
      assertGone(child);
      leftOver.addAll(privateDirs());
      leftOver.removeAll(before);
      leftOver.removeIf(p -> !p.getFileName().toString().startsWith(mine));
    }
    assertThat(leftOver).as("the killed run's port directory").hasSize(1);
    Path port = leftOver.iterator().next();

    List<String> args = new ArrayList<>(List.of("info", "--format", "json", "--"));
    args.addAll(DotnetApps.command(DotnetApps.TARGET_APP, "--no-stdin", "--exit-after-ms", "100"));
    CliResult next = Clrscope.run(TIMEOUT, args.toArray(String[]::new));

    assertThat(next.exitCode()).as("%s", next).isZero();
    assertThat(port).doesNotExist();
    assertThat(privateDirs()).doesNotContain(port);
  }
}
