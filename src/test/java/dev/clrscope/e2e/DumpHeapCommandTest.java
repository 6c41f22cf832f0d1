package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code clrscope dump-heap} against TargetApp holding a known number of objects of a known size
 * ({@code hold Widget N}: a Widget is 40 bytes on 64-bit .NET, a header and method table pointer, a
 * reference, a long and an int padded to 8).
 */
class DumpHeapCommandTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(90);
  private static final int HELD = 123_457;

  @Test
  void countsEveryHeldObjectAndItsExactSize() {
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      assertThat(target.send("hold Widget " + HELD).get("held").asInt()).isEqualTo(HELD);

      CliResult r =
          Clrscope.run(
              TIMEOUT,
              "dump-heap",
              "-p",
              Long.toString(target.pid()),
              "--format",
              "json",
              "--type",
              "Widget");

      assertThat(r.exitCode()).as("%s", r).isZero();
      JsonNode doc = r.stdoutJson();
      assertThat(doc.path("problems")).as("%s", r).isEmpty();
      JsonNode widget = type(doc, "TargetApp.Widget");
      assertThat(widget.path("count").asLong()).isEqualTo(HELD);
      assertThat(widget.path("totalSize").asLong()).isEqualTo(HELD * 40L);
      // A Widget holds only its shared label: each retains itself alone.
      assertThat(widget.path("retainedSize").asLong()).isEqualTo(HELD * 40L);
      // The list's array holds them all, and nothing else does.
      JsonNode array = type(doc, "TargetApp.Widget[]");
      assertThat(array.path("retainedSize").asLong())
          .isGreaterThanOrEqualTo(array.path("totalSize").asLong() + HELD * 40L);
      // Sorted by retained size: the list (which holds the array) before the array, the array
      // before the Widgets.
      JsonNode types = doc.path("types");
      assertThat(types.get(0).path("retainedSize").asLong())
          .isGreaterThanOrEqualTo(array.path("retainedSize").asLong());
      assertThat(doc.path("objects").asLong()).isGreaterThan(HELD);
      // The GC's own figures from the same GC, to set the walk's total against.
      JsonNode gc = doc.path("gcGenerationSizes");
      long generations = 0;
      for (String g : new String[] {"gen0", "gen1", "gen2", "loh", "poh"}) {
        assertThat(gc.has(g)).as(g).isTrue();
        generations += gc.path(g).asLong();
      }
      assertThat(generations).isGreaterThanOrEqualTo(HELD * 40L);
      // What the report says of the whole heap is its JSON head; stderr says how it was taken.
      assertThat(r.stderr())
          .containsPattern("The process holds [\\d.]+ [KMGT]?i?B resident \\(VmRSS\\)")
          .doesNotContain(" walked ");
      // The walk did not harm the target: it answers, and still holds every object.
      assertThat(target.send("counts").path("gen2").asInt()).isPositive();
      assertThat(target.send("release").get("released").asInt()).isEqualTo(HELD);
    }
  }

  /** What process {@code pid} has read so far (rchar of /proc/PID/io), or 0. */
  private static long bytesRead(long pid) {
    try {
      for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "io"))) {
        if (line.startsWith("rchar:")) {
          return Long.parseLong(line.substring(6).trim());
        }
      }
    } catch (java.io.IOException | NumberFormatException e) {
      // not there yet, or gone
    }
    return 0;
  }

  private static JsonNode type(JsonNode doc, String name) {
    for (JsonNode t : doc.path("types")) {
      if (t.path("type").asText().equals(name)) {
        return t;
      }
    }
    throw new AssertionError("no type " + name + " in " + doc);
  }

  @Test
  void aTableOfTheBiggestTypesFirst() {
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      target.send("hold Widget 50000");

      CliResult r =
          Clrscope.run(
              TIMEOUT,
              "dump-heap",
              "-p",
              Long.toString(target.pid()),
              "--top",
              "2",
              "--sort",
              "count");

      assertThat(r.exitCode()).as("%s", r).isZero();
      // What the heap holds as a whole, then the table; sizes in binary units.
      List<String> lines = r.stdoutLines();
      assertThat(lines.get(0)).startsWith("GC ").contains(" walked ").endsWith("showing 2 types");
      assertThat(lines.get(1)).startsWith("The GC's own count after that GC: ");
      assertThat(lines.get(2)).isEmpty();
      assertThat(lines.get(3)).matches(" *COUNT +TOTAL SIZE +RETAINED +TYPE");
      assertThat(lines).hasSize(6);
      assertThat(lines.get(4)).matches(" *50,000 +1\\.91 MiB +1\\.91 MiB +TargetApp\\.Widget");
    }
  }

  @Test
  void aChainAStackHeldObjectAndALargeArrayAreCountedAndRootedWhereTheAppHoldsThem() {
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      assertThat(target.send("shapes").path("chain").asInt()).isEqualTo(1000);
      String pid = Long.toString(target.pid());

      CliResult r =
          Clrscope.run(
              TIMEOUT,
              "dump-heap",
              "-p",
              pid,
              "--format",
              "json",
              "--type",
              "ChainNode|StackHeld|^System\\.Byte\\[\\]$");

      assertThat(r.exitCode()).as("%s", r).isZero();
      JsonNode doc = r.stdoutJson();
      // A ChainNode is 24 bytes (header, method table, one reference); the head alone holds the
      // chain, so the type retains exactly its own size.
      JsonNode chain = type(doc, "TargetApp.ChainNode");
      assertThat(chain.path("count").asLong()).isEqualTo(1000);
      assertThat(chain.path("totalSize").asLong()).isEqualTo(24_000);
      assertThat(chain.path("retainedSize").asLong()).isEqualTo(24_000);
      JsonNode stackHeld = type(doc, "TargetApp.StackHeld");
      assertThat(stackHeld.path("count").asLong()).isEqualTo(1);
      assertThat(stackHeld.path("totalSize").asLong()).isEqualTo(24);
      // byte[1_000_000]: header, method table, length, the bytes, padded to 8.
      JsonNode bytes = type(doc, "System.Byte[]");
      assertThat(bytes.path("totalSize").asLong()).isGreaterThanOrEqualTo(1_000_024);
      assertThat(doc.path("gcGenerationSizes").path("loh").asLong())
          .isGreaterThanOrEqualTo(1_000_024);

      CliResult chainRoot =
          Clrscope.run(
              TIMEOUT,
              "dump-heap",
              "roots",
              "-p",
              pid,
              "--type",
              "ChainNode",
              "--top",
              "1",
              "--format",
              "json");
      assertThat(chainRoot.exitCode()).as("%s", chainRoot).isZero();
      JsonNode head = chainRoot.stdoutJson().get(0);
      assertThat(head.path("root").asText()).isEqualTo("static field ChainHead");
      assertThat(head.path("path").findValuesAsText("type")).containsExactly("TargetApp.ChainNode");

      CliResult stackRoot =
          Clrscope.run(
              TIMEOUT, "dump-heap", "roots", "-p", pid, "--type", "StackHeld", "--format", "json");
      assertThat(stackRoot.exitCode()).as("%s", stackRoot).isZero();
      assertThat(stackRoot.stdoutJson()).hasSize(1);
      assertThat(stackRoot.stdoutJson().get(0).path("root").asText()).isEqualTo("stack");
    }
  }

  /**
   * A leak held from two places: no one object dominates its objects, so the dominator tree tops
   * out low while their type retains most of the heap. dominators says so and where to look;
   * analyze's dominators too.
   */
  @Test
  void dominatorsSaysWhenATypeIsHeldFromMoreThanOnePlace() {
    try (TargetProcess target = DacLiveProcessTest.startUnwaited(List.of())) {
      JsonNode held = target.send("hold-twice 20000");
      String type = held.path("type").asText();
      String pid = Long.toString(target.ready().pid());
      CliResult r = Clrscope.run(TIMEOUT, "dump-heap", "dominators", "-p", pid);
      assertThat(r.exitCode()).as("%s", r).isZero();
      assertThat(r.stdout())
          .containsPattern("The biggest retainer here holds [\\d.]+% of the heap, but the 20,000")
          .contains(" objects of " + type + " retain ")
          .contains("`dump-heap report --type 'TargetApp\\.SharedLeak'`");
      CliResult analyze =
          AnalyzeCli.run(AnalyzeCli.pid(target.ready().pid()), "table", "dominators");
      assertThat(analyze.exitCode()).as("%s", analyze).isZero();
      assertThat(analyze.stdout())
          .contains("objects of " + type + " retain ")
          .contains("`retained -type " + type + "`");
    }
  }

  @Test
  void aWalkThatOverflowsItsBufferIsTakenAgainWithABiggerOneAndComesBackWhole() {
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      target.send("hold Widget 400000");

      CliResult r =
          Clrscope.run(
              TIMEOUT,
              "dump-heap",
              "-p",
              Long.toString(target.pid()),
              "--buffersize",
              "1",
              "--format",
              "json",
              "--type",
              "^TargetApp\\.Widget$");

      assertThat(r.exitCode()).as("%s", r).isZero();
      assertThat(r.stderr())
          .contains(
              "The runtime dropped events with a 1 MB buffer (it walked the heap faster than the"
                  + " events were read): walking it again with 1024 MB ...");
      JsonNode doc = r.stdoutJson();
      assertThat(doc.path("problems")).as("%s", r).isEmpty();
      assertThat(type(doc, "TargetApp.Widget").path("count").asLong()).isEqualTo(400_000);
      assertThat(type(doc, "TargetApp.Widget").path("retainedSize").asLong())
          .isEqualTo(400_000 * 40L);
    }
  }

  @Test
  void aTargetThatDiesDuringTheWalkLeavesNoFileThatClaimsToBeWhole(@TempDir Path dir)
      throws Exception {
    Path file = dir.resolve("cut.gcdump");
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      target.send("hold Link 3000000", Duration.ofSeconds(60));
      try (RunningCli cli =
          Clrscope.start(
              java.util.Map.of(),
              dir,
              "dump-heap",
              "collect",
              "-p",
              Long.toString(target.pid()),
              "-o",
              file.toString())) {
        // The walk's events are flowing once clrscope has read 50 MB (of about 240 MB): the
        // target dies in the middle of its GC's walk.
        await()
            .atMost(TIMEOUT)
            .pollInterval(Duration.ofMillis(10))
            .until(() -> bytesRead(cli.pid()) > 50_000_000L);
        target.process().destroyForcibly().waitFor();

        CliResult r = cli.await(TIMEOUT);
        assertThat(r.exitCode()).as("%s", r).isEqualTo(1);
        assertThat(r.stderr())
            .containsAnyOf(
                "ended during the heap walk: the snapshot is incomplete, nothing was written",
                "ended the session before its runtime walked the heap");
      }
    }
    try (var left = Files.list(dir)) {
      assertThat(left).as("files left in %s", dir).isEmpty();
    }
  }

  @Test
  void rootsNamesTheStaticFieldThatHoldsAWidgetAndEveryStepToIt() {
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      target.send("hold Widget 1000");

      CliResult r =
          Clrscope.run(
              TIMEOUT,
              "dump-heap",
              "roots",
              "-p",
              Long.toString(target.pid()),
              "--type",
              "^TargetApp\\.Widget$",
              "--top",
              "3",
              "--format",
              "json");

      assertThat(r.exitCode()).as("%s", r).isZero();
      JsonNode paths = r.stdoutJson();
      assertThat(paths).hasSize(3);
      for (JsonNode p : paths) {
        // TargetApp's `static readonly List<Widget> Held`: the list, its array, the Widget.
        assertThat(p.path("root").asText()).isEqualTo("static field Held");
        assertThat(p.path("path").findValuesAsText("type"))
            .containsExactly(
                "System.Collections.Generic.List<TargetApp.Widget>",
                "TargetApp.Widget[]",
                "TargetApp.Widget");
        assertThat(p.path("path").get(2).path("size").asLong()).isEqualTo(40);
      }
      assertThat(r.stderr()).contains("3 shortest paths from a root");
    }
  }

  @Test
  void aGcdumpTheRealDotnetGcdumpWroteReportsWhatALiveWalkSees(@TempDir Path dir) throws Exception {
    Path gcdump = Clrscope.root().resolve("../shared/tools/dotnet-gcdump/dotnet-gcdump.dll");
    assertThat(gcdump).as("the shared dotnet-gcdump build").exists();
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      target.send("hold Widget 4321");
      Path file = dir.resolve("app.gcdump");
      Process p =
          new ProcessBuilder(
                  "dotnet",
                  gcdump.toString(),
                  "collect",
                  "-p",
                  Long.toString(target.pid()),
                  "-o",
                  file.toString())
              .redirectErrorStream(true)
              .redirectOutput(dir.resolve("gcdump.log").toFile())
              .start();
      assertThat(p.waitFor(120, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
      assertThat(p.exitValue()).as(Files.readString(dir.resolve("gcdump.log"))).isZero();

      CliResult fromFile =
          Clrscope.run(
              TIMEOUT,
              "dump-heap",
              "report",
              file.toString(),
              "--format",
              "json",
              "--type",
              "Widget");
      Path written = dir.resolve("ours.gcdump");
      CliResult live =
          Clrscope.run(
              TIMEOUT,
              "dump-heap",
              "-p",
              Long.toString(target.pid()),
              "--format",
              "json",
              "--type",
              "Widget",
              "-o",
              written.toString());

      assertThat(fromFile.exitCode()).as("%s", fromFile).isZero();
      assertThat(live.exitCode()).as("%s", live).isZero();
      // The same objects, whoever walked the heap.
      JsonNode ours = type(live.stdoutJson(), "TargetApp.Widget");
      JsonNode theirs = type(fromFile.stdoutJson(), "TargetApp.Widget");
      assertThat(theirs.path("count").asLong())
          .isEqualTo(ours.path("count").asLong())
          .isEqualTo(4321);
      assertThat(theirs.path("totalSize").asLong())
          .isEqualTo(ours.path("totalSize").asLong())
          .isEqualTo(4321 * 40L);
      assertThat(theirs.path("retainedSize").asLong())
          .isEqualTo(ours.path("retainedSize").asLong());

      // The real dotnet-gcdump reads the file clrscope wrote, and counts the same.
      Process report =
          new ProcessBuilder("dotnet", gcdump.toString(), "report", written.toString())
              .redirectErrorStream(true)
              .redirectOutput(dir.resolve("report.txt").toFile())
              .start();
      assertThat(report.waitFor(120, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
      String text = Files.readString(dir.resolve("report.txt"));
      assertThat(report.exitValue()).as(text).isZero();
      // With the type's module, from the rundown clrscope asked for, as dotnet-gcdump prints it.
      assertThat(text.lines())
          .as(text)
          .anyMatch(l -> l.matches(" +40 +4,321 +TargetApp\\.Widget +\\[TargetApp\\.dll\\]"));

      // What grew since the file: exactly the Widgets added.
      target.send("hold Widget 500");
      CliResult diff =
          Clrscope.run(
              TIMEOUT,
              "dump-heap",
              "diff",
              "--before",
              file.toString(),
              "-p",
              Long.toString(target.pid()),
              "--type",
              "^TargetApp\\.Widget$",
              "--format",
              "json");
      assertThat(diff.exitCode()).as("%s", diff).isZero();
      JsonNode grown = diff.stdoutJson().path("types").get(0);
      assertThat(grown.path("type").asText()).isEqualTo("TargetApp.Widget");
      assertThat(grown.path("countDelta").asLong()).isEqualTo(500);
      assertThat(grown.path("sizeDelta").asLong()).isEqualTo(500 * 40L);
      assertThat(grown.path("countAfter").asLong()).isEqualTo(4821);
    }
  }

  @Test
  void gcdumpCollectAsDotnetGcdumpUsersTypeItWritesAFileThatReportsTheSame(@TempDir Path dir)
      throws Exception {
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      target.send("hold Widget 777");
      Path file = dir.resolve("app.gcdump");

      CliResult collect =
          Clrscope.run(
              TIMEOUT,
              "gcdump",
              "collect",
              "-p",
              Long.toString(target.pid()),
              "-o",
              file.toString());

      assertThat(collect.exitCode()).as("%s", collect).isZero();
      assertThat(collect.stdout().strip()).isEqualTo(file.toAbsolutePath().toString());
      CliResult report =
          Clrscope.run(
              TIMEOUT,
              "gcdump",
              "report",
              file.toString(),
              "--format",
              "json",
              "--type",
              "Widget$");
      assertThat(report.exitCode()).as("%s", report).isZero();
      JsonNode widget = type(report.stdoutJson(), "TargetApp.Widget");
      assertThat(widget.path("count").asLong()).isEqualTo(777);
      assertThat(widget.path("totalSize").asLong()).isEqualTo(777 * 40L);
      // The types' modules, from the session's closing rundown, in the file's type table (ASCII
      // strings are one byte a character there): the app's own assembly and CoreLib.
      String bytes =
          new String(Files.readAllBytes(file), java.nio.charset.StandardCharsets.ISO_8859_1);
      assertThat(bytes)
          .contains(
              DotnetApps.dll(DotnetApps.TARGET_APP).toAbsolutePath().normalize().toString(),
              "System.Private.CoreLib.dll");
    }
  }
}
