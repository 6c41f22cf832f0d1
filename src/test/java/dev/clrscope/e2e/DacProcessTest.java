package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.clrscope.dac.source.ElfImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The DAC in a process of its own (issue 31): the process a user talks to never maps
 * libmscordaccore.so, its DAC process does; a fault in the DAC (a real native fault, from a
 * DAC-shaped library compiled here) is one line, exit 1, nothing on stdout, no hs_err file; a DAC
 * process killed (SIGKILL) or faulting (SIGSEGV) while a live process is paused leaves that process
 * running, neither stopped nor traced; SIGTERM and SIGINT at any moment of a pause end with one
 * line and the process let go; at the prompt a DAC process that died is replaced and the next
 * command works.
 */
class DacProcessTest {
  private static final Duration WAIT = Duration.ofMinutes(2);

  /** Widgets the app holds: a dumpheap -stat of them takes a while, 200 of them longer. */
  private static final int WIDGETS = 300_000;

  @TempDir static Path dir;
  private static TargetProcess app;
  private static Path core;
  private static Path faultyDac;

  @BeforeAll
  static void start() throws Exception {
    app = DacLiveProcessTest.startUnwaited(List.of());
    app.send("facts 100");
    assertThat(app.send("hold Widget " + WIDGETS).get("event").asText()).isEqualTo("hold");
    core = dir.resolve("app.core");
    DacCoreDumpTest.dump(pid(), "heap", core);
    Path coreclr = coreclrOf(pid());
    faultyDac =
        faultyDac(
            ElfImage.versionInFile(coreclr),
            ElfImage.hex(ElfImage.buildIdOfFile(coreclr.resolveSibling("libmscordaccore.so"))));
  }

  @AfterAll
  static void stop() {
    if (app != null) {
      app.close();
    }
  }

  private static long pid() {
    return app.ready().pid();
  }

  /** The runtime's libcoreclr.so, as the process maps it. */
  private static Path coreclrOf(long pid) throws IOException {
    for (String line : Files.readAllLines(Path.of("/proc/" + pid + "/maps"))) {
      if (line.endsWith("/libcoreclr.so")) {
        return Path.of(line.substring(line.indexOf('/')));
      }
    }
    throw new AssertionError("libcoreclr.so is not mapped by " + pid);
  }

  /**
   * A DAC-shaped library (gcc): it exports what clrscope looks up in a DAC, carries the runtime's
   * own version line and the real DAC's build-id (so a check of either against the runtime lets it
   * through), and dereferences NULL in CLRDataCreateInstance: a real native fault where a wrong DAC
   * faults.
   */
  private static Path faultyDac(String version, String buildId) throws Exception {
    Path source = dir.resolve("faulty-dac.c");
    Files.writeString(
        source,
        // Writable, as the runtime's own: where a reader of the version line looks.
        "__attribute__((used)) char sccsid[] = \"@(#)Version "
            + version
            + "\";\n"
            + "int DAC_PAL_InitializeDLL(void) { return 0; }\n"
            + "int DllMain(void *handle, unsigned reason, void *reserved) { return 1; }\n"
            + "int CLRDataCreateInstance(const void *iid, void *target, void **result) {\n"
            + "  volatile int *nowhere = 0;\n"
            + "  return *nowhere;\n"
            + "}\n");
    Path so = dir.resolve("faulty").resolve("libmscordaccore.so");
    Files.createDirectories(so.getParent());
    Process gcc =
        new ProcessBuilder(
                "gcc",
                "-shared",
                "-fPIC",
                "-Wl,--build-id=0x" + buildId,
                "-o",
                so.toString(),
                source.toString())
            .redirectErrorStream(true)
            .start();
    String out = new String(gcc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(gcc.waitFor(120, TimeUnit.SECONDS)).isTrue();
    assertThat(gcc.exitValue()).as(out).isZero();
    return so;
  }

  /** The DAC process of a running clrscope: its one java child. */
  private static ProcessHandle dacProcess(RunningCli cli) {
    return cli.process()
        .toHandle()
        .children()
        .filter(p -> p.info().command().orElse("").endsWith("java"))
        .findFirst()
        .orElse(null);
  }

  private static boolean mapsDac(long pid) {
    try {
      return Files.readString(Path.of("/proc/" + pid + "/maps")).contains("libmscordaccore.so");
    } catch (IOException gone) {
      return false;
    }
  }

  /** {@code analyze -p PID} with {@code count} dumpheap -stat commands: one long pause. */
  private static String[] longPause(int count, String... more) {
    List<String> args = new ArrayList<>(List.of("analyze", "-p", Long.toString(pid())));
    for (int i = 0; i < count; i++) {
      args.addAll(List.of("-c", "dumpheap -stat"));
    }
    args.addAll(List.of("--format", "json", "--symbol-server", "none"));
    args.addAll(List.of(more));
    return args.toArray(String[]::new);
  }

  private static boolean paused() throws IOException {
    return !DacLiveProcessTest.status(pid(), "TracerPid").equals("0");
  }

  @Test
  void theProcessTheUserTalksToNeverMapsTheDac() throws Exception {
    List<String[]> runs =
        List.of(
            new String[] {
              "analyze",
              core.toString(),
              "--symbol-server",
              "none",
              "-c",
              "dumpheap -stat",
              "-c",
              "dominators",
              "-c",
              "dumpheap -stat"
            },
            new String[] {"dump-heap", "report", core.toString()},
            new String[] {"dump-heap", "--exact", "-p", Long.toString(pid())},
            longPause(20));
    for (String[] args : runs) {
      boolean childMapped = false;
      try (RunningCli cli = Clrscope.start(Map.of(), Clrscope.root(), args)) {
        while (cli.process().isAlive()) {
          assertThat(mapsDac(cli.pid())).as("the front of %s", List.of(args)).isFalse();
          ProcessHandle dac = dacProcess(cli);
          childMapped |= dac != null && mapsDac(dac.pid());
          Thread.sleep(10);
        }
        CliResult r = cli.await(WAIT);
        assertThat(r.exitCode()).as("%s", r).isZero();
      }
      assertThat(childMapped).as("the DAC process of %s maps the DAC", List.of(args)).isTrue();
    }
    DacLiveProcessTest.assertRunsFree(app);
  }

  /** The one line of a DAC that faults as it is created, reading {@code what}. */
  private static String faultLine(String what, boolean live) {
    return "clrscope analyze: the DAC process ended with SIGSEGV while reading "
        + what
        + ": "
        + (live
            ? what
                + " was let go; the DAC may not match its runtime, or the runtime's memory is"
                + " damaged; try again, or --dac with the libmscordaccore.so of its runtime"
            : "the core may be damaged or the DAC may not match its runtime; try --dac with the"
                + " libmscordaccore.so of the runtime that wrote the core, or take the dump"
                + " again");
  }

  @ParameterizedTest
  @ValueSource(strings = {"table", "json", "csv"})
  void aFaultInTheDacIsOneLineAndNothingElse(String format) throws Exception {
    Path cwd = Files.createDirectories(dir.resolve("cwd-" + format));
    CliResult r =
        Clrscope.run(
            WAIT,
            Map.of(),
            cwd,
            "analyze",
            core.toString(),
            "--dac",
            faultyDac.toString(),
            "--format",
            format,
            "-c",
            "dumpheap -stat");
    assertThat(r.exitCode()).as("%s", r).isEqualTo(1);
    assertThat(r.stdout()).as("%s", r).isEmpty();
    assertThat(r.stderr().lines().toList())
        .as("%s", r)
        .containsExactly(faultLine("core " + core, false));
    CliResult live =
        Clrscope.run(
            WAIT,
            Map.of(),
            cwd,
            "analyze",
            "-p",
            Long.toString(pid()),
            "--dac",
            faultyDac.toString(),
            "--format",
            format,
            "-c",
            "threads");
    assertThat(live.exitCode()).as("%s", live).isEqualTo(1);
    assertThat(live.stdout()).as("%s", live).isEmpty();
    assertThat(live.stderr().lines().toList())
        .as("%s", live)
        .containsExactly(faultLine("process " + pid(), true));
    try (var left = Files.list(cwd)) {
      assertThat(left.toList()).as("no hs_err file, no core").isEmpty();
    }
    DacLiveProcessTest.assertRunsFree(app);
  }

  @ParameterizedTest
  @ValueSource(strings = {"KILL", "SEGV"})
  void aDacProcessKilledWhileAProcessIsPausedLetsItGo(String signal) throws Exception {
    try (RunningCli cli = Clrscope.start(Map.of(), Clrscope.root(), longPause(200))) {
      await().atMost(WAIT).pollInterval(Duration.ofMillis(2)).until(DacProcessTest::paused);
      ProcessHandle dac = dacProcess(cli);
      assertThat(dac).isNotNull();
      // The tracer is a thread of the DAC process.
      assertThat(
              DacLiveProcessTest.status(
                  Long.parseLong(DacLiveProcessTest.status(pid(), "TracerPid")), "Tgid"))
          .isEqualTo(Long.toString(dac.pid()));
      new ProcessBuilder("kill", "-" + signal, Long.toString(dac.pid())).start().waitFor();
      CliResult r = cli.await(WAIT);
      assertThat(r.exitCode()).as("%s", r).isEqualTo(1);
      String what = "process " + pid();
      assertThat(r.stderr().lines().toList())
          .as("%s", r)
          .containsExactly(
              "clrscope analyze: the DAC process ended with SIG"
                  + signal
                  + " while reading "
                  + what
                  + ": "
                  + what
                  + " was let go; "
                  + (signal.equals("KILL")
                      ? "it was killed (by a user, or by the kernel when memory ran short); try"
                          + " again"
                      : "the DAC may not match its runtime, or the runtime's memory is damaged;"
                          + " try again, or --dac with the libmscordaccore.so of its runtime"));
    }
    DacLiveProcessTest.assertRunsFree(app);
  }

  /**
   * SIGTERM or SIGINT at a random moment of a live pause (from its first thread stopped on), again
   * and again: each time exactly one line, never a stack trace, 128 + the signal, and the process
   * let go (no thread stopped or traced).
   */
  @Test
  void sigtermAndSigintAtAnyMomentOfAPauseEndWithOneLine() throws Exception {
    Random random = new Random(31);
    long deadline = System.nanoTime() + Duration.ofSeconds(150).toNanos();
    int tries = 0;
    while (tries < 24 && System.nanoTime() < deadline) {
      String signal = random.nextBoolean() ? "TERM" : "INT";
      long delay = random.nextInt(1500);
      try (RunningCli cli = Clrscope.start(Map.of(), Clrscope.root(), longPause(200))) {
        await().atMost(WAIT).pollInterval(Duration.ofMillis(2)).until(DacProcessTest::paused);
        Thread.sleep(delay);
        cli.signal(signal);
        CliResult r = cli.await(WAIT);
        assertThat(r.exitCode())
            .as("SIG%s after %d ms: %s", signal, delay, r)
            .isEqualTo(signal.equals("TERM") ? 143 : 130);
        assertThat(r.stderr().lines().toList())
            .as("SIG%s after %d ms: %s", signal, delay, r)
            .containsExactly(
                "clrscope analyze: stopped by SIG" + signal + "; process " + pid() + " was let go");
      }
      List<Path> tasks;
      try (var listed = Files.list(Path.of("/proc/" + pid() + "/task"))) {
        tasks = listed.toList();
      }
      for (Path task : tasks) {
        List<String> status = Files.readAllLines(task.resolve("status"));
        assertThat(status).as("SIG%s after %d ms", signal, delay).contains("TracerPid:\t0");
        assertThat(status)
            .as("SIG%s after %d ms", signal, delay)
            .noneMatch(l -> l.startsWith("State:\tt") || l.startsWith("State:\tT"));
      }
      tries++;
    }
    assertThat(tries).as("tries within the time").isGreaterThanOrEqualTo(8);
    DacLiveProcessTest.assertRunsFree(app);
  }

  @Test
  void atThePromptADacProcessThatDiesIsReplacedAndTheNextCommandWorks() throws Exception {
    long pid = pid();
    try (PromptTerminal t =
        PromptTerminal.start(dir.resolve("cache"), "analyze -p " + pid + " --symbol-server none")) {
      await().atMost(WAIT).until(() -> t.count(PromptTerminal.READING) == 1);
      ProcessHandle front =
          t.process()
              .toHandle()
              .descendants()
              .filter(p -> p.info().arguments().map(a -> List.of(a).contains("-jar")).orElse(false))
              .findFirst()
              .orElseThrow();
      ProcessHandle dac = front.children().findFirst().orElseThrow();
      // A long command: every object, a row each; the DAC process faults in the middle of it.
      t.type("dumpheap\n");
      await().atMost(WAIT).pollInterval(Duration.ofMillis(2)).until(DacProcessTest::paused);
      new ProcessBuilder("kill", "-SEGV", Long.toString(dac.pid())).start().waitFor();
      await().atMost(WAIT).until(() -> t.count(PromptTerminal.READING) == 2);
      assertThat(t.screen())
          .contains(
              "dumpheap: the DAC process ended with SIGSEGV while reading process "
                  + pid
                  + ": process "
                  + pid
                  + " was let go; the DAC may not match its runtime, or the runtime's memory is"
                  + " damaged; try again, or --dac with the libmscordaccore.so of its runtime;"
                  + " reading it again in a new DAC process");
      DacLiveProcessTest.assertRunsFree(app);
      ProcessHandle next = front.children().findFirst().orElseThrow();
      assertThat(next.pid()).isNotEqualTo(dac.pid());

      t.type("dumpheap -stat -type TargetApp.Widget\n");
      await().atMost(WAIT).until(() -> t.count(PromptTerminal.READING) == 3);
      assertThat(t.screen())
          .containsPattern(String.format("%,d +%,d +TargetApp\\.Widget", WIDGETS, WIDGETS * 40L));
      t.type("exit\n");
      assertThat(t.awaitExit(WAIT)).as(t.screen()).isZero();
    }
    DacLiveProcessTest.assertRunsFree(app);
  }
}
