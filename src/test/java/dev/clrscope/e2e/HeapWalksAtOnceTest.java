package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Heap walks that meet: two {@code dump-heap -p} of one process at once (the runtime names each
 * type once for every session, so the second used to report every type as {@code UNKNOWN 0x...} and
 * exit 0), a walk while another tool keeps the runtime's Type events on, and a walk that cannot be
 * done within its {@code --duration}.
 */
class HeapWalksAtOnceTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(90);
  private static final int HELD = 20_000;

  private static long widgets(CliResult r) throws Exception {
    for (JsonNode t : r.stdoutJson().path("types")) {
      if (t.path("type").asText().equals("TargetApp.Widget")) {
        return t.path("count").asLong();
      }
    }
    return -1;
  }

  @Test
  void aSecondWalkWaitsForTheFirstAndBothNameEveryType() throws Exception {
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      // Enough objects that the first walk (about a second) is still going when the second,
      // started as the first begins, reaches the lock: a walk of 20,000 is over in 0.2 s, before
      // a second JVM has started.
      target.send("hold Widget " + OVERLAPPING);
      String pid = Long.toString(target.pid());
      try (RunningCli first =
          Clrscope.start(
              Map.of(), null, "dump-heap", "-p", pid, "--format", "json", "--type", "Widget")) {
        await().atMost(TIMEOUT).until(() -> first.stderr().contains("Walking the managed heap"));
        boolean firstStillWalking = first.process().isAlive();
        CliResult second =
            Clrscope.run(TIMEOUT, "dump-heap", "-p", pid, "--format", "json", "--type", "Widget");
        CliResult one = first.await(TIMEOUT);
        assertThat(one.exitCode()).as("%s", one).isZero();
        assertThat(second.exitCode()).as("%s", second).isZero();
        assertThat(widgets(one)).isEqualTo(OVERLAPPING);
        assertThat(widgets(second)).isEqualTo(OVERLAPPING);
        assertThat(one.stdout() + second.stdout()).doesNotContain("UNKNOWN");
        // Unless the first was over before the second began, the second said it waited.
        if (firstStillWalking && !one.stderr().contains("Another clrscope")) {
          assertThat(second.stderr())
              .contains("Another clrscope is walking the heap of process " + pid + ": waiting");
        }
      }
    }
  }

  private static final int OVERLAPPING = 2_000_000;

  @Test
  void aWalkWhileAnotherToolKeepsTypeEventsOnFailsSayingSo(@TempDir Path dir) throws Exception {
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      target.send("hold Widget " + HELD);
      String pid = Long.toString(target.pid());
      // Another tool's session with the runtime's Type keyword (0x80000) on for the whole time:
      // once the runtime has named the types, it names them no more while that session lasts.
      try (RunningCli other =
          Clrscope.start(
              Map.of(),
              dir,
              "trace",
              "collect",
              "-p",
              pid,
              "--providers",
              "Microsoft-Windows-DotNETRuntime:0x80000:5",
              "-o",
              dir.resolve("types.nettrace").toString())) {
        await().atMost(TIMEOUT).until(() -> other.stderr().contains("Tracing process"));
        Clrscope.run(TIMEOUT, "dump-heap", "-p", pid, "--type", "Widget");
        CliResult r = Clrscope.run(TIMEOUT, "dump-heap", "-p", pid, "--type", "Widget");
        assertThat(r.exitCode()).as("%s", r).isEqualTo(1);
        assertThat(r.stdout()).isEmpty();
        assertThat(r.stderr().strip().lines().reduce((a, b) -> b).orElseThrow())
            .startsWith(
                "clrscope dump-heap: the runtime of process "
                    + pid
                    + " did not name the"
                    + " types of ")
            .endsWith(
                " objects: another tool is walking its heap (or keeps the runtime's Type events"
                    + " on), and the runtime names each type once for all of them; try again when"
                    + " it is done");
        other.interrupt();
        other.await(TIMEOUT);
      }
      // That tool gone, a walk names every type again.
      CliResult after =
          Clrscope.run(TIMEOUT, "dump-heap", "-p", pid, "--format", "json", "--type", "Widget");
      assertThat(after.exitCode()).as("%s", after).isZero();
      assertThat(widgets(after)).isEqualTo(HELD);
    }
  }

  @Test
  void aWalkThatCannotBeDoneWithinItsDurationFails() throws Exception {
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      target.send("hold Widget " + HELD);
      CliResult r =
          Clrscope.run(
              TIMEOUT, "dump-heap", "-p", Long.toString(target.pid()), "--duration", "1ms");
      assertThat(r.exitCode()).as("%s", r).isEqualTo(1);
      assertThat(r.stdout()).isEmpty();
      assertThat(r.stderr())
          .contains(
              "clrscope dump-heap: the runtime did not finish walking its heap within 1 ms"
                  + " (--duration): nothing was written or reported; try a longer --duration");
    }
  }
}
