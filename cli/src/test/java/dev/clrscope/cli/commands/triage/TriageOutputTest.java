package dev.clrscope.cli.commands.triage;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clrscope.symbols.Frame;
import dev.clrscope.symbols.SourceLine;
import dev.clrscope.triage.Evidence;
import dev.clrscope.triage.Finding;
import dev.clrscope.triage.Severity;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** A finding's lines under its row: wrapped at spaces, never wider than 80 columns. */
class TriageOutputTest {
  @Test
  void wrappingKeepsEveryWordAndCutsOnlyWordsLongerThanALine() {
    Random random = new Random(33);
    for (int run = 0; run < 2_000; run++) {
      StringBuilder text = new StringBuilder();
      int words = 1 + random.nextInt(40);
      for (int w = 0; w < words; w++) {
        text.append(w == 0 ? "" : " ")
            .append("x".repeat(1 + random.nextInt(run % 3 == 0 ? 120 : 12)));
      }
      List<String> lines = TriageOutput.wrap(text.toString(), 76, "    ");
      assertThat(lines).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(76));
      assertThat(String.join("", lines).replace(" ", ""))
          .isEqualTo(text.toString().replace(" ", ""));
      assertThat(lines.subList(1, lines.size())).allSatisfy(l -> assertThat(l).startsWith("    "));
    }
  }

  @Test
  void aNextCommandBreaksOutsideQuotesIntoLinesAShellJoins() {
    String command =
        "next: clrscope analyze /var/lib/clrscope/dumps/20261127_193920_4242.dmp -c"
            + " \"setthread -t 27558\" -c clrstack -c \"gcroot 0x7fd9a18199b8\"";
    List<String> lines = TriageOutput.command(command, 76, "      ");
    assertThat(lines).hasSizeGreaterThan(1);
    assertThat(lines).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(76));
    assertThat(lines.subList(0, lines.size() - 1)).allSatisfy(l -> assertThat(l).endsWith(" \\"));
    // Pasted, each backslash-newline goes and the next line's indent is a word's space.
    String pasted = String.join("\n", lines).replace(" \\\n      ", " ");
    assertThat(pasted).isEqualTo(command);
    assertThat(lines).noneMatch(l -> l.endsWith("\"setthread \\"));
  }

  @Test
  void aFindingsLinesFit80ColumnsWithTheirIndent() {
    Frame deep =
        new Frame(
            "System.Runtime.CompilerServices.TaskAwaiter.HandleNonSuccessAndDebuggerNotification",
            null);
    Frame user = new Frame("TriageApp.SyncOverAsync.BuildReport", new SourceLine("/src/A.cs", 87));
    Finding f =
        new Finding(
            "sync-over-async",
            Severity.WARNING,
            "Thread 20647 (report-builder) blocks waiting for async"
                + " TriageApp.SyncOverAsync.LoadCustomerAsync in"
                + " TriageApp.SyncOverAsync.BuildReport (A.cs:87): sync over async.",
            Evidence.builder()
                .thread(
                    new Evidence.ThreadEntry(
                        20647, 9, "report-builder", "waits for a task", List.of(deep, user)))
                .object(
                    new Evidence.ObjectEntry(
                        0x7f07d181c0c0L,
                        "System.Runtime.CompilerServices.AsyncTaskMethodBuilder<System.String>"
                            + "+AsyncStateMachineBox<TriageApp.SyncOverAsync+<LoadCustomerAsync>d__8>",
                        96,
                        null,
                        "the task waited for"))
                .fact("threads", 1L)
                .build(),
            List.of(
                "clrscope analyze /a/very/long/path/to/the/core/of/the/service/app.core -c pstacks"));
    List<String> lines = TriageOutput.lines(f);
    assertThat(lines)
        .allSatisfy(l -> assertThat(("    " + l).length()).as(l).isLessThanOrEqualTo(80));
    assertThat(lines).contains("threads: 1", "  at TriageApp.SyncOverAsync.BuildReport (A.cs:87)");
  }
}
