package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every bad input ends in one line that says what went wrong and what to do, with the documented
 * exit code: 1 for the target or environment, 2 for usage.
 */
class BadInputTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(60);

  private static String onlyLine(CliResult result) {
    List<String> lines = result.stderr().lines().toList();
    assertThat(lines).as("%s", result).hasSize(1);
    return lines.get(0);
  }

  @Test
  void noSuchPid() {
    CliResult result = Clrscope.run(TIMEOUT, "info", "-p", "999999999");

    assertThat(result.exitCode()).as("%s", result).isEqualTo(1);
    assertThat(onlyLine(result))
        .isEqualTo(
            "clrscope info: no process with pid 999999999 is running;"
                + " `clrscope ps` lists .NET processes");
  }

  @Test
  void aPidThatIsNotADotnetProcess() throws Exception {
    Process sleep = new ProcessBuilder("sleep", "60").start();
    try {
      CliResult result = Clrscope.run(TIMEOUT, "info", "-p", Long.toString(sleep.pid()));

      assertThat(result.exitCode()).as("%s", result).isEqualTo(1);
      assertThat(onlyLine(result))
          .isEqualTo(
              "clrscope info: process "
                  + sleep.pid()
                  + " (sleep) is not a .NET (Core) process: it has no CoreCLR runtime loaded;"
                  + " `clrscope ps` lists .NET processes");
    } finally {
      sleep.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void aSocketOwnedByAnotherUserNamesTheOwner() throws Exception {
    // The app's socket (mode 0600) belongs to the user running the tests; clrscope runs as nobody.
    // Switching users needs root, which CI has.
    String owner = System.getProperty("user.name");
    assertThat(owner).as("this test switches users, so it runs as root").isEqualTo("root");
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      Process cli =
          new ProcessBuilder(
                  "setpriv",
                  "--reuid=65534",
                  "--regid=65534",
                  "--clear-groups",
                  Clrscope.launcher().toString(),
                  "info",
                  "-p",
                  Long.toString(target.pid()))
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      String err = new String(cli.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(cli.waitFor(60, TimeUnit.SECONDS)).isTrue();

      assertThat(cli.exitValue()).as(err).isEqualTo(1);
      assertThat(err.lines().toList()).hasSize(1);
      assertThat(err)
          .startsWith("clrscope info: permission denied on /tmp/dotnet-diagnostic-" + target.pid())
          .contains("(owned by root): run clrscope as root (for example with sudo)");
    }
  }

  @Test
  void requestsOverTheProtocolsMessageLimitAreUsageErrorsThatSayTheLimit(@TempDir Path dir)
      throws Exception {
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      String pid = Long.toString(target.pid());
      CliResult env =
          Clrscope.run(TIMEOUT, "env", "-p", pid, "--set", "BIG=" + "a".repeat(100_000));
      assertThat(env.exitCode()).as("%s", env).isEqualTo(2);
      assertThat(env.stderr())
          .startsWith(
              "clrscope env: the SetEnvironmentVariable (0x0403) request would be 200,038 bytes;"
                  + " the diagnostic protocol carries at most 65,535 bytes a message")
          .doesNotContain("Exception");
      assertThat(target.send("env BIG").get("value").isNull()).isTrue();

      StringBuilder providers = new StringBuilder();
      for (int i = 0; i < 5000; i++) {
        providers.append(i == 0 ? "" : ",").append("Provider").append(i);
      }
      CliResult trace =
          Clrscope.run(
              TIMEOUT,
              "trace",
              "collect",
              "-p",
              pid,
              "--providers",
              providers.toString(),
              "--duration",
              "1s",
              "-o",
              dir.resolve("never.nettrace").toString());
      assertThat(trace.exitCode()).as("%s", trace).isEqualTo(2);
      assertThat(trace.stderr())
          .startsWith("clrscope trace collect: the CollectTracing")
          .contains("the diagnostic protocol carries at most 65,535 bytes a message")
          .doesNotContain("Exception");
      assertThat(dir.resolve("never.nettrace")).as("no empty file left behind").doesNotExist();
      assertThat(target.send("ping").get("event").asText()).isEqualTo("pong");
    }
  }

  @Test
  void aDumpIsNeverClaimedWrittenToADevice(@TempDir Path dir) throws Exception {
    // A private full device (never /dev/full itself); mknod needs root, which CI has.
    Path full = dir.resolve("full");
    Process mknod = new ProcessBuilder("mknod", full.toString(), "c", "1", "7").start();
    assertThat(mknod.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(mknod.exitValue()).isZero();
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      CliResult result =
          Clrscope.run(TIMEOUT, "dump", "-p", Long.toString(target.pid()), "-o", full.toString());
      assertThat(result.exitCode()).as("%s", result).isEqualTo(1);
      assertThat(onlyLine(result))
          .isEqualTo(
              "clrscope dump: "
                  + full
                  + " is not a regular file (a directory, device or FIFO): the runtime writes the"
                  + " dump to a file of its own; choose another -o");
      assertThat(result.stdout()).isEmpty();
      assertThat(Files.readAttributes(full, PosixFileAttributes.class).isOther()).isTrue();
      assertThat(target.send("ping").get("event").asText()).isEqualTo("pong");
    }
  }

  @Test
  void aHungTargetTimesOutInsteadOfHangingTheTool() throws Exception {
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      signal("STOP", target.pid());
      try {
        CliResult result =
            Clrscope.run(TIMEOUT, "info", "--timeout", "2", "-p", Long.toString(target.pid()));

        assertThat(result.exitCode()).as("%s", result).isEqualTo(1);
        assertThat(onlyLine(result))
            .startsWith("clrscope info: timed out waiting for the reply to ProcessInfo3 (0x0408)")
            .endsWith("is the target hung?");
      } finally {
        signal("CONT", target.pid());
      }
    }
  }

  @Test
  void theTargetExitingMidCommand(@TempDir Path dir) throws Exception {
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      // Stopped, the target accepts the connection (the kernel does) but never answers; killed
      // while clrscope waits, it closes the connection under it.
      signal("STOP", target.pid());
      Path log = dir.resolve("clrscope.log");
      try (RunningCli cli =
          Clrscope.start(
              java.util.Map.of(),
              Clrscope.root(),
              "env",
              "--timeout",
              "30",
              "--log-file",
              log.toString(),
              "-p",
              Long.toString(target.pid()))) {
        // Killed once clrscope has connected, so it is waiting for the reply.
        org.awaitility.Awaitility.await()
            .atMost(TIMEOUT)
            .until(() -> Files.exists(log) && Files.readString(log).contains("connected to "));
        signal("KILL", target.pid());
        CliResult result = cli.await(TIMEOUT);

        assertThat(result.exitCode()).as("%s", result).isEqualTo(1);
        assertThat(onlyLine(result))
            .startsWith("clrscope env: the target closed the connection to /tmp/dotnet-diagnostic-")
            .endsWith("it may have exited");
      }
    }
  }

  private static void signal(String name, long pid) throws Exception {
    Process kill = new ProcessBuilder("kill", "-" + name, Long.toString(pid)).start();
    assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(kill.exitValue()).isZero();
  }

  @Test
  void theLaunchedCommandExitingBeforeItsRuntimeConnects() {
    CliResult result = Clrscope.run(TIMEOUT, "info", "--", "sh", "-c", "exit 3");

    assertThat(result.exitCode()).as("%s", result).isEqualTo(1);
    assertThat(onlyLine(result))
        .isEqualTo(
            "clrscope info: sh exited with code 3 before a .NET runtime connected:"
                + " is it a .NET (Core 5+) app?");
  }

  @Test
  void usageErrors() {
    CliResult noTarget = Clrscope.run(TIMEOUT, "info");
    CliResult twoTargets = Clrscope.run(TIMEOUT, "info", "-p", "1", "-n", "x");
    CliResult badPort = Clrscope.run(TIMEOUT, "info", "--diagnostic-port", "/tmp/x.sock,sideways");
    CliResult emptyPort = Clrscope.run(TIMEOUT, "env", "--diagnostic-port", ",connect");

    for (CliResult r : List.of(noTarget, twoTargets, badPort, emptyPort)) {
      assertThat(r.exitCode()).as("%s", r).isEqualTo(2);
      assertThat(r.stderr()).contains("Try 'clrscope ");
    }
    assertThat(noTarget.stderr().lines().findFirst().orElseThrow())
        .isEqualTo(
            "clrscope info: choose a target: -p PID, -n NAME, --diagnostic-port PATH, or"
                + " -- COMMAND [ARGS] (`clrscope ps` lists .NET processes)");
    assertThat(twoTargets.stderr().lines().findFirst().orElseThrow())
        .isEqualTo(
            "clrscope info: choose one target only: -p, -n, --diagnostic-port and -- COMMAND"
                + " exclude each other");
    assertThat(badPort.stderr().lines().findFirst().orElseThrow())
        .isEqualTo(
            "clrscope info: unknown --diagnostic-port mode 'sideways' in '/tmp/x.sock,sideways':"
                + " use PATH, PATH,listen or PATH,connect");
    assertThat(emptyPort.stderr().lines().findFirst().orElseThrow())
        .isEqualTo(
            "clrscope env: --diagnostic-port needs a socket path, as PATH, PATH,listen or"
                + " PATH,connect");
  }

  @Test
  void anAmbiguousOrUnknownName() {
    CliResult unknown = Clrscope.run(TIMEOUT, "info", "-n", "NoSuchAppAnywhere");

    assertThat(unknown.exitCode()).as("%s", unknown).isEqualTo(1);
    assertThat(onlyLine(unknown))
        .isEqualTo(
            "clrscope info: no .NET process named 'NoSuchAppAnywhere':"
                + " `clrscope ps` lists the running ones");
  }

  @Test
  void anOptionMistakeNeverLaunchesTheApp() {
    // The mistake is between two options: caught before the app is started, not after.
    CliResult result =
        Clrscope.run(
            TIMEOUT,
            "trace",
            "collect",
            "--clreventlevel",
            "4",
            "--",
            "sh",
            "-c",
            "echo launched; exit 9");

    assertThat(result.exitCode()).as("%s", result).isEqualTo(2);
    assertThat(result.stdout()).doesNotContain("launched");
    assertThat(result.stderr().lines().findFirst().orElseThrow())
        .isEqualTo("clrscope trace collect: --clreventlevel needs --clrevents");
  }
}
