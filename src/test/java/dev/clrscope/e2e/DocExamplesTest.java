package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every {@code clrscope ...} example of README.md and docs/*.md, run: the examples of the docs are
 * what a new user types first, and they must not drift from what the tool does. An example is a
 * line of a fenced block that runs clrscope ({@code clrscope ...}, {@code $ clrscope ...}, {@code
 * ./clrscope ...}); a block that cannot be run here says so, and why, in an HTML comment just
 * before it ({@code <!-- not run: WHY -->}).
 *
 * <p>Each example runs as written, with what it names made real: {@code -p 1234} (any pid) is a
 * TargetApp of this test's, {@code -n MyApp} (any name) the same app under a name of its own,
 * {@code -- dotnet bin/MyApp.dll} TargetApp launched to exit by itself, {@code app.core} a core of
 * it, and a saved trace or .gcdump a copy of a real one of the kind the command reads. A live
 * watcher without {@code --duration} is stopped with Ctrl+C (SIGINT) once it watches; a long {@code
 * --duration} is cut to 3 s; {@code serve} listens on a free port. It must end as the doc says
 * (exit 0, or a launched app's {@code --exit-code}), with no usage error and no stack trace.
 */
class DocExamplesTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(120);

  /** A fenced block's opening line says it is not run, and why. */
  private static final Pattern NOT_RUN = Pattern.compile("<!-- not run: (.+) -->");

  /** A line that runs clrscope, and where the command starts. */
  private static final Pattern RUNS =
      Pattern.compile("^\\s*(?:\\$\\s+|.*&&\\s+)?(?:\\./)?clrscope\\s");

  /** A line of output that starts as clrscope's messages do ({@code clrscope ps: ...}). */
  private static final Pattern MESSAGE = Pattern.compile("^\\s*clrscope [a-z-]+( [a-z-]+)?: ");

  /** What every example names: made real once. */
  // JUnit deletes it after the class: a full core of 120 MB was left in /tmp by every run.
  @TempDir static Path dir;

  private static TargetProcess app;
  private static String name;
  private static Path core;

  /**
   * An example of a doc.
   *
   * @param where {@code docs/x.md:12}
   * @param text the command line as written, {@code clrscope ...}
   */
  record Example(String where, String text) {
    @Override
    public String toString() {
      return where + ": " + text;
    }
  }

  /** The docs: README.md and every docs/*.md. */
  private static List<Path> docs() throws IOException {
    List<Path> docs = new ArrayList<>();
    docs.add(Clrscope.root().resolve("README.md"));
    try (Stream<Path> s = Files.list(Clrscope.root().resolve("docs"))) {
      s.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
    }
    return docs;
  }

  /** The examples of every doc, but those of blocks marked not run. */
  static List<Example> examples() throws IOException {
    List<Example> examples = new ArrayList<>();
    for (Path doc : docs()) {
      List<String> lines = Files.readAllLines(doc);
      boolean inBlock = false;
      boolean skipped = false;
      for (int i = 0; i < lines.size(); i++) {
        String line = lines.get(i);
        if (line.strip().startsWith("```")) {
          inBlock = !inBlock;
          skipped = inBlock && i > 0 && NOT_RUN.matcher(lines.get(i - 1).strip()).matches();
          continue;
        }
        if (!inBlock || skipped) {
          continue;
        }
        Matcher m = RUNS.matcher(line);
        if (!m.find() || MESSAGE.matcher(line).find()) {
          continue;
        }
        String text = line.substring(line.indexOf("clrscope ", m.start() == 0 ? 0 : m.start()));
        int at = i;
        while (text.endsWith("\\") && at + 1 < lines.size()) {
          text = text.substring(0, text.length() - 1).strip() + " " + lines.get(++at).strip();
        }
        examples.add(
            new Example(
                Clrscope.root().relativize(doc) + ":" + (i + 1), withoutComment(text).strip()));
      }
    }
    return examples;
  }

  /** The line without a shell comment ({@code # ...} outside quotes). */
  private static String withoutComment(String line) {
    boolean single = false;
    boolean dbl = false;
    for (int i = 0; i < line.length(); i++) {
      char c = line.charAt(i);
      if (c == '\'' && !dbl) {
        single = !single;
      } else if (c == '"' && !single) {
        dbl = !dbl;
      } else if (c == '#' && !single && !dbl && i > 0 && line.charAt(i - 1) == ' ') {
        return line.substring(0, i);
      }
    }
    return line;
  }

  @BeforeAll
  static void start() throws IOException {
    // TargetApp under a name no other process has (-n finds it alone): its apphost, renamed.
    name = "MyApp-" + UUID.randomUUID().toString().substring(0, 6);
    Path appDir = dir.resolve("app");
    Files.createDirectories(appDir);
    try (Stream<Path> s = Files.list(DotnetApps.dir().resolve(DotnetApps.TARGET_APP))) {
      for (Path f : s.toList()) {
        Path to =
            appDir.resolve(
                f.getFileName().toString().equals(DotnetApps.TARGET_APP)
                    ? name
                    : f.getFileName().toString());
        Files.copy(f, to, StandardCopyOption.COPY_ATTRIBUTES);
      }
    }
    // Through a shell that waits on it: analyze pauses it with ptrace (see DacLiveProcessTest).
    app =
        TargetProcess.startCommand(
            name,
            List.of(
                "sh",
                "-c",
                "exec 3<&0; \"$0\" \"$@\" <&3 3<&- & wait $!",
                appDir.resolve(name).toString()),
            Map.of());
    app.send("hold Widget 100");
    core = dir.resolve("app.core");
    DacCoreDumpTest.dump(app.ready().pid(), "full", core);
    Path fixtures = Clrscope.root().resolveSibling("shared").resolve("fixtures");
    Path monitor = Clrscope.root().resolve("monitor/src/test/resources/dev/clrscope/monitor");
    copy(
        fixtures.resolve("pyroscope/dotnet-5.0-SampleProfiler-single-thread.nettrace"),
        "app.nettrace");
    copy(monitor.resolve("contention/net10-fail-contend-wait.nettrace"), "trace.nettrace");
    copy(monitor.resolve("http/net10-http.nettrace"), "net10-http.nettrace");
    copy(monitor.resolve("startup/net10-startup.nettrace"), "net10-startup.nettrace");
    for (String gcdump : List.of("widget.gcdump", "generic.gcdump")) {
      copy(fixtures.resolve("gcdump").resolve(gcdump), gcdump);
    }
    copy(fixtures.resolve("gcdump/widget.gcdump"), "before.gcdump");
    copy(fixtures.resolve("gcdump/widget.gcdump"), "20261125_090025_4242.gcdump");
  }

  private static void copy(Path from, String as) throws IOException {
    Files.copy(from, dir.resolve(as), StandardCopyOption.REPLACE_EXISTING);
  }

  @AfterAll
  static void stop() {
    if (app != null) {
      app.close();
    }
  }

  /** The example with what it names made real; {@code clrscope} is the launcher. */
  static String real(String example) {
    String pid = Long.toString(app.ready().pid());
    String dll = DotnetApps.dll(DotnetApps.TARGET_APP).toString();
    String s = example;
    s = s.replaceAll("-p (\\d+|PID)\\b", "-p " + pid);
    s = s.replaceAll("-n (MyApp|MyService|NAME)\\b", "-n " + name);
    s =
        s.replaceAll(
            "dotnet (bin/MyApp\\.dll( --arg)?|app\\.dll)",
            "dotnet " + dll + " --no-stdin --exit-after-ms 1500");
    s = s.replace("dotnet TargetApp.dll", "dotnet " + dll);
    s =
        s.replace(
            "dotnet src/test/target/apps/SampleApp/SampleApp.dll",
            "dotnet " + DotnetApps.dll(DotnetApps.SAMPLE_APP));
    s = s.replace("app.core", core.toString());
    // A long watch is cut short: what it shows comes from the first seconds.
    s = s.replaceAll("--duration (\\d+m|[1-9]\\d+s)", "--duration 3s");
    if (s.startsWith("clrscope serve")) {
      // A free port, and this test's app alone: other processes' sessions are none of its business.
      s += " --listen 127.0.0.1:0 -p " + pid;
    }
    return s.replaceFirst("^clrscope", "'" + Clrscope.launcher() + "'");
  }

  /** A command that watches a live target until it is stopped. */
  private static final Pattern WATCHER =
      Pattern.compile(
          "^clrscope (gcstats|exceptions|contention|http|alloc|counters (monitor|collect)|trace"
              + " collect|serve)\\b");

  @ParameterizedTest(name = "{0}")
  @MethodSource("examples")
  void runsAsTheDocSays(Example example) throws Exception {
    String line = real(example.text());
    boolean live =
        line.contains(" -p ") || line.contains(" -n ") || line.contains("clrscope' serve");
    boolean stopped =
        WATCHER.matcher(example.text()).find() && live && !example.text().contains("--duration");
    Matcher code = Pattern.compile("--exit-code (\\d+)").matcher(example.text());
    int expected = code.find() ? Integer.parseInt(code.group(1)) : 0;
    List<String> command = List.of("sh", "-c", "exec " + line);
    if (line.contains("|") || line.contains("&&")) {
      command = List.of("sh", "-c", line);
    }
    CliResult r;
    try (RunningCli cli = new RunningCli(Subprocess.start(command, Map.of(), dir))) {
      if (stopped) {
        await()
            .atMost(TIMEOUT)
            .until(
                () -> {
                  assertThat(cli.process().isAlive()).as("%s", cli.stderr()).isTrue();
                  return Pattern.compile("Watching|Monitoring|Tracing|Collecting|Serving")
                      .matcher(cli.stderr())
                      .find();
                });
        Thread.sleep(2000);
        cli.interrupt();
      }
      r = cli.await(TIMEOUT);
    }
    assertThat(r.exitCode()).as("%s\n%s", example, r).isEqualTo(expected);
    assertThat(r.stderr())
        .as("%s", example)
        .doesNotContain("internal error")
        .doesNotContain("Try 'clrscope")
        .doesNotContain("Exception in thread");
  }

  /** The docs have examples, and a block that is not run says why. */
  @Test
  void theDocsHaveExamplesAndEveryBlockNotRunSaysWhy() throws IOException {
    assertThat(examples()).hasSizeGreaterThan(40);
    for (Path doc : docs()) {
      for (String line : Files.readAllLines(doc)) {
        if (line.strip().startsWith("<!-- not run")) {
          Matcher m = NOT_RUN.matcher(line.strip());
          assertThat(m.matches()).as("%s: %s", doc, line).isTrue();
          assertThat(m.group(1).strip()).as("%s: %s", doc, line).hasSizeGreaterThan(10);
        }
      }
    }
  }
}
