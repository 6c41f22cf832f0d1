package dev.clrscope.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clrscope.cli.logging.Logging;
import dev.clrscope.nettrace.NetTraceReader;
import dev.clrscope.nettrace.TraceHeader;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** clrscope's own logs: off by default, -v to stderr, --log-file to a file. */
class LoggingTest {
  /** A line of the log file: ISO timestamp with offset, [thread], level, full logger name. */
  private static final Pattern FILE_LINE =
      Pattern.compile(
          "\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}[+-]\\d{2}:\\d{2} \\[[^\\]]+\\]"
              + " (TRACE|DEBUG|INFO |WARN |ERROR) dev\\.clrscope\\.[\\w.$]+ - .*");

  /** A line of -v: time of day, level, logger name without dev.clrscope. */
  private static final Pattern STDERR_LINE =
      Pattern.compile("\\d{2}:\\d{2}:\\d{2}\\.\\d{3} (DEBUG|INFO |WARN |ERROR) [\\w.$]+ - .*");

  private static Path golden;
  private static String formatLine;
  private static String endLine;

  @TempDir Path tmp;

  @BeforeAll
  static void findTheGoldenTrace() {
    golden =
        Path.of(System.getProperty("user.dir"))
            .toAbsolutePath()
            .getParent()
            .resolve("nettrace/src/test/resources/golden/golden.nettrace");
    assertThat(golden).isRegularFile();
    // What the parser logs about this trace, from the reader's own view of it.
    try (NetTraceReader r = NetTraceReader.open(golden, false)) {
      TraceHeader h = r.header();
      while (r.next() != null) {
        // Read to the end, as trace stats does.
      }
      formatLine =
          "nettrace.BlockFraming - nettrace stream, format V4: pointer size 8, pid "
              + h.processId()
              + ", "
              + h.processorCount()
              + " processors, sync time "
              + h.syncTimeUtc()
              + " (QPC frequency "
              + h.qpcFrequency()
              + " Hz)";
      // The golden trace defines 43 event metadata records.
      endLine =
          "nettrace.TraceParser - end of the trace: "
              + r.blocksRead()
              + " blocks, "
              + r.sequencePoints()
              + " sequence points, 43 event metadata, "
              + r.droppedEvents()
              + " events dropped";
    }
  }

  private static CliRun run(String... args) {
    return CliRun.of(args);
  }

  private static CliRun stats(String... extra) {
    List<String> args = new ArrayList<>(List.of("trace", "stats", golden.toString()));
    args.addAll(List.of(extra));
    return run(args.toArray(String[]::new));
  }

  /**
   * What {@code ps} prints whether or not a .NET process runs on this machine (CI's has none): the
   * table's header on stdout, or nothing there and one line on stderr that says so.
   */
  private static void assertListing(CliRun ps) {
    if (ps.out().isEmpty()) {
      assertThat(ps.err()).contains("clrscope ps: no .NET processes found; ");
    } else {
      assertThat(ps.out().lines().findFirst().orElseThrow().strip()).startsWith("PID  NAME");
    }
  }

  @Test
  void logsAreOffByDefault() {
    CliRun r = stats();
    assertThat(r.exit()).isZero();
    assertThat(r.out()).startsWith("File            " + golden + System.lineSeparator());
    assertThat(r.err()).isEmpty();

    CliRun ps = run("ps");
    assertThat(ps.exit()).isZero();
    assertListing(ps);
    assertThat(ps.err().lines().toList()).noneMatch(l -> STDERR_LINE.matcher(l).matches());
    assertThat(ps.err()).doesNotContain("SLF4J", "logback", "DEBUG");
  }

  @Test
  void verboseLogsGoToStderrOnly() {
    CliRun plain = stats();
    CliRun verbose = stats("-v");
    assertThat(verbose.exit()).isZero();
    assertThat(verbose.out()).isEqualTo(plain.out());
    assertThat(verbose.err().lines().toList()).allMatch(l -> STDERR_LINE.matcher(l).matches());
    assertThat(verbose.err().lines().toList())
        .anyMatch(l -> l.endsWith(" DEBUG " + formatLine))
        .anyMatch(l -> l.endsWith(" DEBUG " + endLine));

    // Before the subcommand, and the long name: the same.
    CliRun before = run("--verbose", "trace", "stats", golden.toString());
    assertThat(before.out()).isEqualTo(plain.out());
    assertThat(before.err().lines().toList()).anyMatch(l -> l.endsWith(" DEBUG " + formatLine));
  }

  @Test
  void verbosePsLogsDiscovery() {
    CliRun ps = run("ps", "-v");
    assertThat(ps.exit()).isZero();
    assertListing(ps);
    assertThat(ps.err().lines().toList())
        .filteredOn(l -> STDERR_LINE.matcher(l).matches())
        .anyMatch(
            l ->
                l.matches(
                    ".* DEBUG ipc\\.discovery\\.EndpointLocator - listed \\d+ \\.NET processes"
                        + " among \\d+ processes, searching the directories \\[.*\\]"));
  }

  @Test
  void logFileGetsDebugLinesWithTimestampsAndThreads() throws IOException {
    Path log = tmp.resolve("clrscope.log");
    CliRun plain = stats();
    CliRun r = stats("--log-file", log.toString());
    assertThat(r.exit()).isZero();
    assertThat(r.out()).isEqualTo(plain.out());
    assertThat(r.err()).isEmpty();

    List<String> lines = Files.readAllLines(log);
    assertThat(lines).allMatch(l -> FILE_LINE.matcher(l).matches());
    String thread = " [" + Thread.currentThread().getName() + "] DEBUG dev.clrscope.";
    assertThat(lines.get(0))
        .endsWith(
            thread
                + "cli.Main - clrscope trace stats: version "
                + ClrscopeVersion.version()
                + ", Java "
                + System.getProperty("java.version")
                + " ("
                + System.getProperty("java.vm.name")
                + "), "
                + System.getProperty("os.name")
                + " "
                + System.getProperty("os.arch")
                + ", pid "
                + ProcessHandle.current().pid());
    assertThat(lines).anyMatch(l -> l.endsWith(thread + formatLine));
    assertThat(lines).anyMatch(l -> l.endsWith(thread + endLine));

    // A second run appends; a run without the option leaves the file alone.
    stats("--log-file", log.toString());
    long size = Files.size(log);
    assertThat(Files.readAllLines(log)).hasSize(2 * lines.size());
    CliRun after = stats();
    assertThat(after.err()).isEmpty();
    assertThat(Files.size(log)).isEqualTo(size);
  }

  @Test
  void verboseAndLogFileTogether() throws IOException {
    Path log = tmp.resolve("both.log");
    CliRun r = stats("-v", "--log-file", log.toString());
    assertThat(r.exit()).isZero();
    List<String> lines = Files.readAllLines(log);
    // The file has the run's own first line on top of what stderr has.
    assertThat(lines).hasSize(r.err().lines().toList().size() + 1);
    assertThat(r.err().lines().toList()).anyMatch(l -> l.endsWith(" DEBUG " + endLine));
    assertThat(lines).anyMatch(l -> l.endsWith("DEBUG dev.clrscope." + endLine));
  }

  @Test
  void aLogFileThatCannotBeOpenedIsATargetError() throws IOException {
    Path missing = tmp.resolve("no-such-dir").resolve("x.log");
    CliRun r = run("ps", "--log-file", missing.toString());
    assertThat(r.exit()).isEqualTo(1);
    assertThat(r.err())
        .isEqualTo(
            "clrscope ps: cannot open the log file "
                + missing
                + ": the directory "
                + missing.getParent()
                + " does not exist"
                + System.lineSeparator());
    assertThat(r.out()).isEmpty();

    CliRun dir = stats("--log-file", tmp.toString());
    assertThat(dir.exit()).isEqualTo(1);
    assertThat(dir.err())
        .isEqualTo(
            "clrscope trace stats: cannot open the log file "
                + tmp
                + ": Is a directory"
                + System.lineSeparator());
    assertThat(dir.out()).isEmpty();
  }

  @Test
  void aTargetErrorGoesToTheLogFileWithItsStackTrace() throws IOException {
    Path log = tmp.resolve("target-error.log");
    Path absent = tmp.resolve("absent.nettrace");
    CliRun r = run("trace", "stats", absent.toString(), "--log-file", log.toString());
    assertThat(r.exit()).isEqualTo(1);
    String message = "clrscope trace stats: no such file: " + absent;
    assertThat(r.err()).isEqualTo(message + System.lineSeparator());
    List<String> lines = Files.readAllLines(log);
    int at = lines.size() - 1;
    while (at >= 0 && !lines.get(at).contains(" ERROR ")) {
      at--;
    }
    assertThat(lines.get(at)).endsWith(" ERROR dev.clrscope.cli.Main - " + message + " (exit 1)");
    assertThat(lines.get(at + 1))
        .isEqualTo("dev.clrscope.cli.CommandFailure: no such file: " + absent);
    assertThat(lines.get(at + 2)).startsWith("\tat dev.clrscope.cli.");
  }

  @Test
  void anInternalErrorGoesToTheLogFileOnlyWithItsStackTrace() throws IOException {
    Path log = tmp.resolve("internal.log");
    CommandLine ps = ClrscopeCommand.commandLineFor("ps").getSubcommands().get("ps");
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream errStream = new PrintStream(err, true, StandardCharsets.UTF_8);
    ps.setErr(new java.io.PrintWriter(errStream, true));
    int exit;
    Logging.start(true, log, errStream);
    try {
      exit = Main.failure(new IllegalStateException("boom"), ps, new String[] {"ps", "-v"}, true);
    } finally {
      Logging.stop();
    }
    assertThat(exit).isEqualTo(70);
    // stderr has the handler's report, not a log line of it as well.
    List<String> errLines = err.toString(StandardCharsets.UTF_8).lines().toList();
    assertThat(errLines.get(0)).isEqualTo("clrscope ps: internal error, please report it:");
    assertThat(errLines.get(1)).isEqualTo("java.lang.IllegalStateException: boom");
    assertThat(errLines).noneMatch(l -> STDERR_LINE.matcher(l).matches());

    List<String> lines = Files.readAllLines(log);
    assertThat(lines.get(0))
        .matches(FILE_LINE)
        .endsWith(" ERROR dev.clrscope.cli.Main - clrscope ps: internal error (exit 70)");
    assertThat(lines.get(1)).isEqualTo("java.lang.IllegalStateException: boom");
    assertThat(lines.get(2))
        .startsWith(
            "\tat dev.clrscope.cli.LoggingTest.anInternalErrorGoesToTheLogFileOnlyWithItsStackTrace(");
  }

  @Test
  void everyCommandHasTheOptionsAndGcstatsHasPerHeap() {
    for (String[] command :
        List.of(
            new String[] {"ps"},
            new String[] {"trace", "collect"},
            new String[] {"trace", "stats"},
            new String[] {"counters", "monitor"},
            new String[] {"gcstats"})) {
      List<String> args = new ArrayList<>(List.of(command));
      args.add("--help");
      CliRun help = run(args.toArray(String[]::new));
      assertThat(help.exit()).as(String.join(" ", command)).isZero();
      assertThat(help.out())
          .as(String.join(" ", command))
          .contains("  -v, --verbose ", "      --log-file=FILE ");
    }
    assertThat(run("gcstats", "--help").out())
        .contains("      --per-heap ")
        .contains("Also print each heap's history");
  }

  @Test
  void versionLoadsNoLoggingClassesAndDefaultRunsPrintNothingExtra()
      throws IOException, InterruptedException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String classPath = System.getProperty("java.class.path");

    Process version =
        new ProcessBuilder(
                java, "-Xlog:class+load", "-cp", classPath, Main.class.getName(), "--version")
            .redirectErrorStream(true)
            .start();
    String loaded = new String(version.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(version.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(version.exitValue()).isZero();
    assertThat(loaded).contains("dev.clrscope.cli.Main ").doesNotContain("org.slf4j", "ch.qos");

    // A real process, real streams: stderr stays empty (no slf4j or logback notices).
    Process stats =
        new ProcessBuilder(
                java, "-cp", classPath, Main.class.getName(), "trace", "stats", golden.toString())
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .start();
    String err = new String(stats.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(stats.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(stats.exitValue()).isZero();
    assertThat(err).isEmpty();
  }
}
