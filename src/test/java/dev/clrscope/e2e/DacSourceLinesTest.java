package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clrscope.dac.DacOptions;
import dev.clrscope.dac.DacSession;
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
 * {@code DumpFacts.BlockedHere} is at the line of its {@code Thread.Sleep} call, through the model
 * and through {@code analyze}'s {@code clrstack} and {@code pstacks}; the stored exception's frames
 * ({@code pe}) at the lines of their throws. Every line read from the source by its marker.
 */
class DacSourceLinesTest {
  @TempDir Path dir;

  @Test
  void aThreadBlockedAtAKnownLineIsAtThatLineInACore() throws Exception {
    Path core = dir.resolve("facts.core");
    JsonNode facts;
    try (TargetProcess app = TargetProcess.start(DotnetApps.TARGET_APP)) {
      facts = app.send("facts 100");
      DacCoreDumpTest.dump(app.pid(), "full", core);
    }
    SourceLines lines =
        new SourceLines(
            new SymbolSearch(
                List.of(),
                new SymbolStore(dir.resolve("cache"), null, Duration.ofSeconds(5), 1 << 26)));
    int sleepLine = SourceMarkers.line(DotnetApps.TARGET_APP, "DumpFacts.cs", "blocked-here");
    try (DacSession p = DacSession.openCore(core, DacOptions.defaults())) {
      List<StackFrame> stack = p.runtime().stack(facts.path("blockedTid").asInt());
      int at = -1;
      for (int i = 0; i < stack.size(); i++) {
        if ("TargetApp.DumpFacts.BlockedHere".equals(stack.get(i).methodName())) {
          at = i;
        }
      }
      assertThat(at).as("%s", stack).isPositive();
      // Below a transition frame: a return address, the line of the call to Thread.Sleep.
      FrameLocation where = p.runtime().frameLocation(stack.get(at), true);
      assertThat(where).isNotNull();
      assertThat(where.module().ilPath()).endsWith("/TargetApp/TargetApp.dll");
      assertThat(where.module().pdbId()).isNotNull();
      SourceLine line = where.line(lines);
      assertThat(line).isNotNull();
      assertThat(line.file()).endsWith("/TargetApp/DumpFacts.cs");
      assertThat(line.line()).isEqualTo(sleepLine);
      assertThat(lines.problems()).isEmpty();
    }

    // analyze: clrstack of the blocked thread, pstacks, and pe of the stored exception.
    List<String> target = AnalyzeCli.core(core);
    int tid = facts.path("blockedTid").asInt();
    List<JsonNode> docs = AnalyzeCli.json(target, "setthread -t " + tid, "clrstack");
    JsonNode blocked = null;
    for (JsonNode f : docs.get(1).path("threads").get(0).path("frames")) {
      if (f.path("method").asText().startsWith("TargetApp.DumpFacts.BlockedHere(")) {
        blocked = f;
      }
    }
    assertThat(blocked).as("%s", docs.get(1)).isNotNull();
    assertThat(blocked.path("file").asText()).endsWith("/TargetApp/DumpFacts.cs");
    assertThat(blocked.path("line").asInt()).isEqualTo(sleepLine);
    CliResult table = AnalyzeCli.run(target, "table", "setthread -t " + tid, "clrstack", "pstacks");
    assertThat(table.exitCode()).as("%s", table).isZero();
    // clrstack's frame line, and pstacks' node.
    assertThat(table.stdout().lines())
        .filteredOn(
            l -> l.contains("TargetApp.DumpFacts.BlockedHere() (DumpFacts.cs:" + sleepLine + ")"))
        .hasSize(2);

    // At 80 columns, on a terminal: pstacks keeps the frame and its line, its start cut instead.
    List<String> narrow =
        OnATerminal.run(
            80,
            AnalyzeCli.TIMEOUT,
            "analyze",
            core.toString(),
            "-c",
            "pstacks",
            "-c",
            "exit",
            "--symbol-server",
            "none");
    assertThat(narrow).allSatisfy(l -> assertThat(l.length()).as(l).isLessThanOrEqualTo(80));
    assertThat(narrow)
        .anyMatch(l -> l.contains("DumpFacts.BlockedHere() (DumpFacts.cs:" + sleepLine + ")"));

    java.util.Map<String, JsonNode> holder =
        AnalyzeCommandTest.statics(target, facts.get("holderType").asText());
    long stored = AnalyzeCli.address(holder.get(facts.get("exceptionField").asText()).get("value"));
    JsonNode chain = AnalyzeCli.one(target, "pe " + AnalyzeCli.hex(stored)).path("exceptions");
    JsonNode outer = chain.get(0).path("stackTrace").get(0);
    assertThat(outer.path("method").asText()).startsWith("TargetApp.DumpFacts.ThrowOuter(");
    assertThat(outer.path("line").asInt())
        .isEqualTo(SourceMarkers.line(DotnetApps.TARGET_APP, "DumpFacts.cs", "throw-outer"));
    JsonNode inner = chain.get(1).path("stackTrace").get(0);
    assertThat(inner.path("method").asText()).startsWith("TargetApp.DumpFacts.ThrowInner(");
    assertThat(inner.path("line").asInt())
        .isEqualTo(SourceMarkers.line(DotnetApps.TARGET_APP, "DumpFacts.cs", "throw-inner"));
  }
}
