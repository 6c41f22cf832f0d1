package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clrscope.dac.DacOptions;
import dev.clrscope.dac.DacSession;
import dev.clrscope.dac.TargetException;
import dev.clrscope.dac.TargetException.Problem;
import dev.clrscope.dac.analysis.ThreadPoolQueues;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The analyze model on a live TargetApp, paused with ptrace: the same facts as in its cores, the
 * pause measured, and the process running on afterwards (answers a ping, neither stopped nor
 * traced), whether the reader closes, fails, is killed with SIGKILL or ends on SIGTERM.
 */
class DacLiveProcessTest {
  @TempDir static Path dir;
  private static TargetProcess app;
  private static JsonNode facts;

  @BeforeAll
  static void start() {
    app = startUnwaited(List.of());
    facts = app.send("facts 1000");
  }

  /**
   * TargetApp started through a shell that waits on it, so that this JVM never waits on the app
   * itself: a thread of the JVM that pauses a process with ptrace must not be one that waits on it
   * (the JDK's process reaper would take the app's ptrace stops for an exit). {@link
   * TargetProcess#pid} is the shell's; the app's is in its ready line.
   */
  static TargetProcess startUnwaited(List<String> args) {
    return TargetProcess.startUnwaited(
        Runtime.NET10, DotnetApps.TARGET_APP, args, java.util.Map.of());
  }

  private static int pid() {
    return (int) app.ready().pid();
  }

  @AfterAll
  static void stop() {
    if (app != null) {
      app.close();
    }
  }

  private static DacOptions options() {
    return DacOptions.defaults().withSymbolServer(null).withCacheDir(dir.resolve("cache"));
  }

  @Test
  void everyFactIsReadFromThePausedProcessWhichThenRunsOn() throws IOException {
    DacSession p = DacSession.attach(pid(), options());
    try (p) {
      assertThat(p.isLive()).isTrue();
      assertThat(status(pid(), "State")).startsWith("t");
      assertThat(status(Long.parseLong(status(pid(), "TracerPid")), "Tgid"))
          .isEqualTo(Long.toString(ProcessHandle.current().pid()));
      DumpFactsCheck.assertFacts(p, facts, app.ready());
    }
    assertThat(p.paused()).isPositive().isLessThan(Duration.ofMinutes(1));
    assertRunsFree(app);
  }

  @Test
  void theThreadPoolsWaitingWorkIsListedInOrderLiveAndInACore() throws IOException {
    try (TargetProcess pool = startUnwaited(List.of())) {
      JsonNode queued = pool.send("queue 6");
      Path core = dir.resolve("pool.core");
      DacCoreDumpTest.dump(pool.ready().pid(), "full", core);
      for (boolean live : new boolean[] {true, false}) {
        try (DacSession p =
            live
                ? DacSession.attach((int) pool.ready().pid(), options())
                : DacSession.openCore(core, options())) {
          List<ThreadPoolQueues.WorkItem> items = ThreadPoolQueues.all(p.heap());
          assertThat(items).hasSize(queued.get("queued").asInt());
          for (int i = 0; i < items.size(); i++) {
            ThreadPoolQueues.WorkItem w = items.get(i);
            assertThat(w.queue()).isEqualTo("global");
            assertThat(w.callback()).isEqualTo(queued.get("callback").asText() + "(System.Object)");
            assertThat(p.heap().object(w.state()).asString()).isEqualTo("work-" + i);
          }
        }
      }
    }
  }

  @Test
  void aProcessAlreadyTracedIsRefusedWithWhoTracesIt() throws IOException {
    try (DacSession first = DacSession.attach(pid(), options())) {
      assertThat(first.runtime().threads()).isNotEmpty();
      long me = ProcessHandle.current().pid();
      assertThatThrownBy(() -> DacSession.attach(pid(), options()))
          .isInstanceOfSatisfying(
              TargetException.class, e -> assertThat(e.problem()).isEqualTo(Problem.PTRACE_REFUSED))
          .hasMessage(
              "cannot pause process "
                  + pid()
                  + ": ptrace was refused: it is already traced by process "
                  + me
                  + " ("
                  + Files.readString(Path.of("/proc/" + me + "/comm")).strip()
                  + "); detach that debugger first");
    }
    assertRunsFree(app);
  }

  @Test
  void aProcessThatIsNotDotnetIsSaidToBeNone() throws Exception {
    Process sleeper = new ProcessBuilder("sleep", "600").start();
    try {
      assertThatThrownBy(() -> DacSession.attach((int) sleeper.pid(), options()))
          .isInstanceOfSatisfying(
              TargetException.class, e -> assertThat(e.problem()).isEqualTo(Problem.NOT_DOTNET))
          .hasMessage(
              "process "
                  + sleeper.pid()
                  + " has no .NET runtime: libcoreclr.so is not mapped (not a .NET process, or a NativeAOT one, which has no DAC)");
      // Refused after pausing it: it was let go.
      assertThat(status(sleeper.pid(), "TracerPid")).isEqualTo("0");
      assertThat(status(sleeper.pid(), "State")).doesNotStartWith("t");
    } finally {
      sleeper.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    assertThatThrownBy(() -> DacSession.attach(Integer.MAX_VALUE - 1, options()))
        .isInstanceOfSatisfying(
            TargetException.class, e -> assertThat(e.problem()).isEqualTo(Problem.PROCESS_GONE))
        .hasMessage("there is no process " + (Integer.MAX_VALUE - 1));
  }

  @Test
  void whenTheReaderIsKilledTheKernelLetsTheProcessGo() throws Exception {
    Process holder = holder("sleep");
    try {
      awaitLine(holder, "attached");
      assertThat(status(Long.parseLong(status(pid(), "TracerPid")), "Tgid"))
          .isEqualTo(Long.toString(holder.pid()));
      holder.destroyForcibly();
      assertThat(holder.waitFor(30, TimeUnit.SECONDS)).isTrue();
    } finally {
      holder.destroyForcibly();
    }
    assertRunsFree(app);
  }

  @Test
  void sigtermStopsTheWorkInProgressAndLetsTheProcessGo() throws Exception {
    Process holder = holder("walk");
    try {
      BufferedReader out = awaitLine(holder, "attached");
      // SIGTERM, as kill sends it (Process.destroy would also close the streams read below).
      assertThat(new ProcessBuilder("kill", "-TERM", Long.toString(holder.pid())).start().waitFor())
          .isZero();
      // The JVM ends promptly although its owner thread was walking the heap: the shutdown hook
      // stops the walk and detaches (whether the interrupted walk still prints is a race).
      String rest = String.join("\n", out.lines().toList());
      assertThat(holder.waitFor(30, TimeUnit.SECONDS)).isTrue();
      assertThat(holder.exitValue()).isEqualTo(143);
      assertThat(rest).isIn("", "walk stopped: stopped: the target is being released");
    } finally {
      holder.destroyForcibly();
    }
    assertRunsFree(app);
  }

  @Test
  void anotherUsersProcessIsRefusedWithWhatToDo() throws Exception {
    assertThat(System.getProperty("user.name"))
        .as("this test switches users, so it runs as root")
        .isEqualTo("root");
    // The holder's classes, copied where user nobody can read them.
    Path shared = Files.createTempDirectory("dac-nobody");
    try {
      List<String> classpath = new ArrayList<>();
      for (Class<?> c :
          List.of(
              LiveHolder.class,
              DacSession.class,
              dev.clrscope.symbols.ProcessMaps.class,
              com.sun.jna.Native.class)) {
        Path from = Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path to = shared.resolve("cp" + classpath.size() + (Files.isDirectory(from) ? "" : ".jar"));
        copyTree(from, to);
        classpath.add(to.toString());
      }
      Path jnaTmp = Files.createDirectories(shared.resolve("jna"));
      try (var all = Files.walk(shared)) {
        for (Path p : all.toList()) {
          Files.setPosixFilePermissions(
              p,
              java.nio.file.attribute.PosixFilePermissions.fromString(
                  Files.isDirectory(p) ? "rwxrwxrwx" : "rw-r--r--"));
        }
      }
      Process holder =
          new ProcessBuilder(
                  "setpriv",
                  "--reuid=65534",
                  "--regid=65534",
                  "--clear-groups",
                  Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                  "-Djna.tmpdir=" + jnaTmp,
                  "-cp",
                  String.join(":", classpath),
                  LiveHolder.class.getName(),
                  Integer.toString(pid()),
                  "sleep")
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      String err = new String(holder.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
      assertThat(holder.waitFor(60, TimeUnit.SECONDS)).isTrue();

      assertThat(holder.exitValue()).as(err).isEqualTo(1);
      assertThat(err.strip())
          .isEqualTo(
              "cannot pause process "
                  + pid()
                  + ": ptrace was refused: it runs as user 0 and clrscope as user 65534; run clrscope"
                  + " as that user or as root");
    } finally {
      try (var all = Files.walk(shared)) {
        all.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
    assertRunsFree(app);
  }

  private static void copyTree(Path from, Path to) throws IOException {
    if (!Files.isDirectory(from)) {
      Files.copy(from, to);
      return;
    }
    try (var all = Files.walk(from)) {
      for (Path p : all.toList()) {
        Path t = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(t);
        } else {
          Files.copy(p, t);
        }
      }
    }
  }

  private static Process holder(String mode) throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(LiveHolder.class.getName());
    cmd.add(Integer.toString(pid()));
    cmd.add(mode);
    return new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
  }

  private static BufferedReader awaitLine(Process p, String expected) throws IOException {
    BufferedReader out =
        new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
    String line = out.readLine();
    assertThat(line).as("the holder's first line").isEqualTo(expected);
    return out;
  }

  /** The target answers, and no thread of it is stopped or traced. */
  static void assertRunsFree(TargetProcess app) throws IOException {
    assertThat(app.send("ping").get("event").asText()).isEqualTo("pong");
    try (var tasks = Files.list(Path.of("/proc/" + app.ready().pid() + "/task"))) {
      for (Path task : tasks.toList()) {
        List<String> lines = Files.readAllLines(task.resolve("status"));
        assertThat(field(lines, "TracerPid")).as("%s", task).isEqualTo("0");
        assertThat(field(lines, "State"))
            .as("%s", task)
            .doesNotStartWith("t")
            .doesNotStartWith("T");
      }
    }
  }

  static String status(long pid, String name) throws IOException {
    return field(Files.readAllLines(Path.of("/proc/" + pid + "/status")), name);
  }

  private static String field(List<String> lines, String name) {
    for (String l : lines) {
      if (l.startsWith(name + ":")) {
        return l.substring(name.length() + 1).strip();
      }
    }
    throw new AssertionError("no " + name + " in " + lines);
  }
}
