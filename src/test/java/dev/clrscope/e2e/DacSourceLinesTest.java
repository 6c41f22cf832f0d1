package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clrscope.dac.ClrProcess;
import dev.clrscope.dac.DacOptions;
import dev.clrscope.dac.FrameLocation;
import dev.clrscope.dac.StackFrame;
import dev.clrscope.symbols.SourceLine;
import dev.clrscope.symbols.SourceLines;
import dev.clrscope.symbols.SymbolSearch;
import dev.clrscope.symbols.SymbolStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The DAC side of source lines: in a core of TargetApp after {@code facts}, the thread blocked in
 * {@code DumpFacts.BlockedHere} is at the line of its {@code Thread.Sleep} call, and its caller at
 * the line of its call; both read from the source by their markers.
 */
class DacSourceLinesTest {
  @TempDir Path dir;

  @Test
  void aThreadBlockedAtAKnownLineIsAtThatLineInACore() throws Exception {
    Path core = dir.resolve("facts.core");
    JsonNode facts;
    try (TargetProcess app = TargetProcess.start(DotnetApps.TARGET_APP)) {
      facts = app.send("facts 100");
      CliResult r =
          Clrscope.run(
              Duration.ofMinutes(3),
              "dump",
              "-p",
              Long.toString(app.pid()),
              "--type",
              "full",
              "-o",
              core.toString());
      assertThat(r.exitCode()).as("%s", r).isZero();
    }
    SourceLines lines =
        new SourceLines(
            new SymbolSearch(
                List.of(),
                new SymbolStore(dir.resolve("cache"), null, Duration.ofSeconds(5), 1 << 26)));
    int sleepLine = SourceMarkers.line(DotnetApps.TARGET_APP, "DumpFacts.cs", "blocked-here");
    try (ClrProcess p = ClrProcess.openCore(core, DacOptions.defaults())) {
      List<StackFrame> stack = p.stack(facts.path("blockedTid").asInt());
      int at = -1;
      for (int i = 0; i < stack.size(); i++) {
        if ("TargetApp.DumpFacts.BlockedHere".equals(stack.get(i).methodName())) {
          at = i;
        }
      }
      assertThat(at).as("%s", stack).isPositive();
      // Below a transition frame: a return address, the line of the call to Thread.Sleep.
      FrameLocation where = p.frameLocation(stack.get(at), true);
      assertThat(where).isNotNull();
      assertThat(where.module().ilPath()).endsWith("/TargetApp/TargetApp.dll");
      assertThat(where.module().pdbId()).isNotNull();
      SourceLine line = where.line(lines);
      assertThat(line).isNotNull();
      assertThat(line.file()).endsWith("/TargetApp/DumpFacts.cs");
      assertThat(line.line()).isEqualTo(sleepLine);
      assertThat(lines.problems()).isEmpty();
    }
  }
}
