package dev.clrscope.e2e;

import static dev.clrscope.e2e.AnalyzeCli.byKey;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The older GC layout, segments, live: .NET 7 and later ship the segments GC beside the default
 * regions one ({@code DOTNET_GCName=libclrgc.so}), in workstation and server mode. The same heap
 * facts as with regions, from the runtime's heap walk over EventPipe ({@code dump-heap}, live and
 * its file) and from the DAC on the paused process ({@code analyze -p}), which says which layout
 * and mode it read.
 */
class RuntimeHeapLayoutsTest {
  private static final int HELD = 34_567;

  @TempDir Path dir;

  @ParameterizedTest
  @Execution(ExecutionMode.CONCURRENT)
  @EnumSource(
      value = Runtime.class,
      names = {"NET8", "NET10"})
  @RunsCommands({
    "dump-heap collect (segments GC, workstation)",
    "dump-heap report (segments GC, workstation)",
    "analyze live (segments GC, workstation)"
  })
  void segmentsWorkstation(Runtime runtime) throws Exception {
    walk(runtime, false);
  }

  @ParameterizedTest
  @Execution(ExecutionMode.CONCURRENT)
  @EnumSource(
      value = Runtime.class,
      names = {"NET8", "NET10"})
  @RunsCommands({
    "dump-heap collect (segments GC, server)",
    "dump-heap report (segments GC, server)",
    "analyze live (segments GC, server)"
  })
  void segmentsServer(Runtime runtime) throws Exception {
    walk(runtime, true);
  }

  private void walk(Runtime runtime, boolean server) throws Exception {
    Map<String, String> env =
        Map.of("DOTNET_GCName", "libclrgc.so", "DOTNET_gcServer", server ? "1" : "0");
    Path gcdump = dir.resolve("segments-" + runtime + "-" + server + ".gcdump");
    try (TargetProcess app =
        TargetProcess.startUnwaited(runtime, DotnetApps.TARGET_APP, List.of(), env)) {
      long pid = app.ready().pid();
      // The runtime loaded the segments GC from its own directory.
      assertThat(Files.readString(Path.of("/proc/" + pid + "/maps")))
          .contains(runtime.runtimeDir(DotnetApps.TARGET_APP).resolve("libclrgc.so").toString());
      app.send("hold Widget " + HELD);

      CliResult live =
          Clrscope.run(
              AnalyzeCli.TIMEOUT,
              "dump-heap",
              "-p",
              Long.toString(pid),
              "--format",
              "json",
              "--type",
              "Widget",
              "-o",
              gcdump.toString());
      assertThat(live.exitCode()).as("%s", live).isZero();
      JsonNode widget = RuntimeSessionsTest.type(live.stdoutJson(), "TargetApp.Widget");
      assertThat(widget.get("count").asLong()).isEqualTo(HELD);
      assertThat(widget.get("totalSize").asLong()).isEqualTo(HELD * 40L);
      assertThat(widget.get("retainedSize").asLong()).isEqualTo(HELD * 40L);

      CliResult report =
          Clrscope.run(
              AnalyzeCli.TIMEOUT,
              "dump-heap",
              "report",
              gcdump.toString(),
              "--format",
              "json",
              "--type",
              "Widget");
      assertThat(report.exitCode()).as("%s", report).isZero();
      JsonNode saved = RuntimeSessionsTest.type(report.stdoutJson(), "TargetApp.Widget");
      assertThat(saved.get("count").asLong()).isEqualTo(HELD);
      assertThat(saved.get("totalSize").asLong()).isEqualTo(HELD * 40L);

      List<JsonNode> docs =
          AnalyzeCli.json(
              AnalyzeCli.pid(pid), "eeheap -gc", "dumpheap -stat -type TargetApp.Widget");
      JsonNode heap = docs.get(0);
      assertThat(heap.get("layout").asText()).isEqualTo("segments");
      assertThat(heap.get("gcMode").asText()).isEqualTo(server ? "Server" : "Workstation");
      assertThat(heap.get("heaps").asInt())
          .isEqualTo(server ? java.lang.Runtime.getRuntime().availableProcessors() : 1);
      JsonNode widgets = byKey(docs.get(1).get("types"), "type").get("TargetApp.Widget");
      assertThat(widgets.get("count").asLong()).isEqualTo(HELD);
      assertThat(widgets.get("totalSize").asLong()).isEqualTo(HELD * 40L);
      DacLiveProcessTest.assertRunsFree(app);
    }
  }
}
