package dev.clrscope.e2e;

import static dev.clrscope.e2e.AnalyzeCli.address;
import static dev.clrscope.e2e.AnalyzeCli.byKey;
import static dev.clrscope.e2e.AnalyzeCli.hex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code clrscope analyze -p PID} on a live TargetApp: the facts of {@code facts 1000} and {@code
 * triage-facts} read from the paused process, the pause said on stderr, and the process running on
 * afterwards (answers a ping, no thread stopped or traced), also when clrscope ends on SIGTERM in
 * the middle of its work; and each refusal (another user, a process already traced, a process that
 * is not .NET, no such process) as one line and exit 1, the process left as it was.
 */
class AnalyzeLiveTest {
  private static final Pattern PAUSED =
      Pattern.compile("Process (\\d+) was paused for (\\d+\\.\\d{3}) (m?s)\\.");

  private static TargetProcess app;
  private static JsonNode facts;
  private static JsonNode triage;

  @BeforeAll
  static void start() {
    app = DacLiveProcessTest.startUnwaited(List.of());
    facts = app.send("facts 1000");
    triage = app.send("triage-facts");
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

  @Test
  void everyFactIsReadFromThePausedProcessWhichThenRunsOn() throws Exception {
    String itemType = facts.get("itemType").asText();
    CliResult r =
        AnalyzeCli.run(
            AnalyzeCli.pid(pid()),
            "json",
            "dumpheap -stat",
            "clrstack -all",
            "dumpheap -short -type " + itemType + "[]",
            "timerinfo",
            "pstacks");
    assertThat(r.exitCode()).as("%s", r).isZero();
    // One pause for all the commands, said once.
    List<String> err = r.stderr().lines().toList();
    assertThat(err).as("%s", r).hasSize(1);
    var m = PAUSED.matcher(err.get(0));
    assertThat(m.matches()).as(err.get(0)).isTrue();
    assertThat(Long.parseLong(m.group(1))).isEqualTo(pid());
    assertThat(Double.parseDouble(m.group(2)) / (m.group(3).equals("ms") ? 1000 : 1))
        .isPositive()
        .isLessThan(60);
    DacLiveProcessTest.assertRunsFree(app);

    List<JsonNode> docs = AnalyzeCli.documents(r);
    assertThat(byKey(docs.get(0).get("types"), "type").get(itemType).get("count").asLong())
        .isEqualTo(1000);
    int tid = facts.get("blockedTid").asInt();
    JsonNode stack = byKey(docs.get(1).get("threads"), "osId").get(Integer.toString(tid));
    List<String> methods = new ArrayList<>();
    stack.get("frames").forEach(f -> methods.add(f.path("method").asText("")));
    assertThat(methods).contains(facts.get("blockedMethod").asText() + "()");
    String tick = triage.get("tickCallback").asText() + "(System.Object)";
    assertThat(docs.get(3).get("timers"))
        .filteredOn(t -> t.get("callback").asText().equals(tick))
        .hasSize(triage.get("tickTimers").asInt());

    // Another pause for the next run; the object is where the previous run saw it (nothing ran
    // that could move it: the app is idle).
    long array = address(docs.get(2).get("objects").get(0).get("address"));
    List<JsonNode> more =
        AnalyzeCli.json(AnalyzeCli.pid(pid()), "gcroot " + hex(array), "dumpobj " + hex(array));
    assertThat(more.get(0))
        .anySatisfy(
            p ->
                assertThat(p.get("root").asText())
                    .isEqualTo(
                        "static "
                            + facts.get("holderType").asText()
                            + "."
                            + facts.get("staticField").asText()));
    assertThat(more.get(1).get("length").asLong()).isEqualTo(1000);
    DacLiveProcessTest.assertRunsFree(app);
  }

  @Test
  void sigtermWhilePausedLetsTheProcessGo() throws Exception {
    // Many commands under one pause: the process stays paused long enough to be signalled.
    List<String> args = new ArrayList<>(List.of("analyze", "-p", Long.toString(pid())));
    for (int i = 0; i < 200; i++) {
      args.add("-c");
      args.add("dumpheap -stat");
    }
    args.addAll(List.of("--format", "json", "--symbol-server", "none"));
    try (RunningCli cli = Clrscope.start(Map.of(), Clrscope.root(), args.toArray(String[]::new))) {
      await()
          .atMost(Duration.ofMinutes(1))
          .until(() -> !DacLiveProcessTest.status(pid(), "TracerPid").equals("0"));
      cli.signal("TERM");
      CliResult r = cli.await(Duration.ofMinutes(1));
      assertThat(r.exitCode()).as("%s", r).isEqualTo(143);
      assertThat(r.stderr().lines().toList())
          .as("%s", r)
          .containsExactly(
              "clrscope analyze: stopped by SIGTERM; process " + pid() + " was let go");
    }
    DacLiveProcessTest.assertRunsFree(app);
  }

  @Test
  void aProcessAlreadyTracedIsRefusedAndLeftToItsTracer() throws Exception {
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-cp");
    cmd.add(System.getProperty("java.class.path"));
    cmd.add(LiveHolder.class.getName());
    cmd.add(Long.toString(pid()));
    cmd.add("sleep");
    Process holder = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    try {
      BufferedReader out =
          new BufferedReader(
              new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
      assertThat(out.readLine()).isEqualTo("attached");
      CliResult r = AnalyzeCli.run(AnalyzeCli.pid(pid()), "table", "threads");
      assertThat(r.exitCode()).as("%s", r).isEqualTo(1);
      assertThat(r.stdout()).isEmpty();
      assertThat(r.stderr().lines().toList())
          .containsExactly(
              "clrscope analyze: cannot pause process "
                  + pid()
                  + ": ptrace was refused: it is already traced by process "
                  + holder.pid()
                  + " (java); detach that debugger first");
      // Still held by its tracer (a thread of that JVM), not by clrscope.
      assertThat(
              DacLiveProcessTest.status(
                  Long.parseLong(DacLiveProcessTest.status(pid(), "TracerPid")), "Tgid"))
          .isEqualTo(Long.toString(holder.pid()));
    } finally {
      holder.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }
    DacLiveProcessTest.assertRunsFree(app);
  }

  @Test
  void anotherUsersProcessIsRefusedWithWhatToDo() throws Exception {
    assertThat(System.getProperty("user.name")).as("this test switches users").isEqualTo("root");
    Process cli =
        new ProcessBuilder(
                "setpriv",
                "--reuid=65534",
                "--regid=65534",
                "--clear-groups",
                Clrscope.launcher().toString(),
                "analyze",
                "-p",
                Long.toString(pid()),
                "-c",
                "threads",
                "--symbol-server",
                "none")
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    String err = new String(cli.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(cli.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(cli.exitValue()).as(err).isEqualTo(1);
    assertThat(err.lines().toList())
        .containsExactly(
            "clrscope analyze: cannot pause process "
                + pid()
                + ": ptrace was refused: it runs as user 0 and clrscope as user 65534; run"
                + " clrscope as that user or as root");
    DacLiveProcessTest.assertRunsFree(app);
  }

  @Test
  void aProcessThatIsNotDotnetOrNotThereIsOneLine() throws Exception {
    Process sleeper = new ProcessBuilder("sleep", "600").start();
    try {
      CliResult r = AnalyzeCli.run(AnalyzeCli.pid(sleeper.pid()), "table", "threads");
      assertThat(r.exitCode()).as("%s", r).isEqualTo(1);
      assertThat(r.stderr().lines().toList())
          .containsExactly(
              "clrscope analyze: process "
                  + sleeper.pid()
                  + " has no .NET runtime: libcoreclr.so is not mapped (not a .NET process, or a"
                  + " NativeAOT one, which has no DAC)");
      assertThat(DacLiveProcessTest.status(sleeper.pid(), "TracerPid")).isEqualTo("0");
      assertThat(DacLiveProcessTest.status(sleeper.pid(), "State")).doesNotStartWith("t");
    } finally {
      sleeper.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
    CliResult gone = AnalyzeCli.run(AnalyzeCli.pid(Integer.MAX_VALUE - 1), "table", "threads");
    assertThat(gone.exitCode()).as("%s", gone).isEqualTo(1);
    assertThat(gone.stderr().lines().toList())
        .containsExactly("clrscope analyze: there is no process " + (Integer.MAX_VALUE - 1));
    CliResult noName =
        Clrscope.run(AnalyzeCli.TIMEOUT, "analyze", "-n", "no-such-process-name", "-c", "threads");
    assertThat(noName.exitCode()).as("%s", noName).isEqualTo(1);
    assertThat(noName.stderr().lines().toList())
        .containsExactly(
            "clrscope analyze: no .NET process named 'no-such-process-name': `clrscope ps` lists"
                + " the running ones");
  }

  @Test
  void theStackCommandSeesTheSameThreadsAsDotnetStackWithoutPausing() throws Exception {
    CliResult ours =
        Clrscope.run(AnalyzeCli.TIMEOUT, "stack", "-p", Long.toString(pid()), "--format", "json");
    assertThat(ours.exitCode()).as("%s", ours).isZero();
    Map<Long, List<String>> stacks = new java.util.HashMap<>();
    for (JsonNode t : ours.stdoutJson()) {
      List<String> frames = new ArrayList<>();
      t.get("frames").forEach(f -> frames.add(f.get("frame").asText()));
      stacks.put(t.get("thread").asLong(), frames);
    }
    Map<Long, List<String>> theirs = DotnetStack.report(pid());
    assertThat(stacks.keySet()).isEqualTo(theirs.keySet());
    long tid = facts.get("blockedTid").asLong();
    List<String> blocked = stacks.get(tid);
    assertThat(blocked.subList(0, 3))
        .containsExactly(
            "[Native Frames]",
            "System.Threading.Thread.Sleep",
            facts.get("blockedMethod").asText());
    // dotnet-stack names frames Module!Namespace.Type.Method(parameters): the same methods.
    assertThat(blocked).isEqualTo(DotnetStack.methods(theirs.get(tid)));
    DacLiveProcessTest.assertRunsFree(app);
  }
}
