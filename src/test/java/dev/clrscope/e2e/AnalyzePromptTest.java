package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Analyze's prompt in a real terminal (a pseudo-terminal from {@code script}): tab completion of a
 * command's name, an error that leaves the prompt going, Ctrl+C clearing the line and ending a
 * running command, the history kept in the cache directory, and a live process paused only while a
 * command reads it: between commands it runs, neither stopped nor traced.
 */
class AnalyzePromptTest {
  private static final Duration WAIT = Duration.ofMinutes(2);

  private static final String READING = PromptTerminal.READING;

  @TempDir Path dir;

  @Test
  void completionHistoryErrorsAndAPauseOnlyWhileACommandRuns() throws Exception {
    try (TargetProcess app = DacLiveProcessTest.startUnwaited(List.of())) {
      app.send("facts 100");
      long pid = app.ready().pid();
      try (PromptTerminal t = analyzeInTerminal(pid)) {
        String paused = "Process " + pid + " was paused for ";
        await().atMost(WAIT).until(() -> t.screen().contains("Type help for the commands"));
        await().atMost(WAIT).until(() -> t.count(paused) == 1);

        // "dumph" and Tab: the prompt completes the command's name.
        t.type("dumph\t-stat -type TargetApp.FactItem[]\n");
        await().atMost(WAIT).until(() -> t.screen().contains("Total 1 objects"));
        await().atMost(WAIT).until(() -> t.count(paused) == 2);
        // Between commands the process runs.
        DacLiveProcessTest.assertRunsFree(app);

        t.type("nosuch\n");
        await()
            .atMost(WAIT)
            .until(() -> t.screen().contains("no command nosuch (help lists the commands"));
        // Ctrl+C clears the line; the prompt goes on. What is typed before the prompt has handled
        // the interrupt can be lost, so the next line waits for the next prompt (each turns on
        // bracketed paste as it starts reading: ESC [?2004h).
        int prompts = t.count(READING);
        t.type("dumpheap -stat\u0003");
        await().atMost(WAIT).until(() -> t.count(READING) > prompts);
        t.type("exit\n");
        assertThat(t.awaitExit(WAIT)).as(t.screen()).isZero();
        assertThat(t.count("Process " + pid + " was paused for ")).isEqualTo(2);
      }
      DacLiveProcessTest.assertRunsFree(app);
      List<String> history =
          Files.readAllLines(dir.resolve("clrscope").resolve("analyze_history")).stream()
              .map(l -> l.substring(l.indexOf(':') + 1))
              .toList();
      assertThat(history)
          .containsExactly("dumpheap -stat -type TargetApp.FactItem[]", "nosuch", "exit");
    }
  }

  @Test
  void ctrlCEndsARunningCommandLetsTheProcessGoAndThePromptGoesOn() throws Exception {
    try (TargetProcess app = DacLiveProcessTest.startUnwaited(List.of())) {
      int widgets = 1_000_000;
      assertThat(app.send("hold Widget " + widgets).get("event").asText()).isEqualTo("hold");
      long pid = app.ready().pid();
      try (PromptTerminal t = analyzeInTerminal(pid)) {
        await().atMost(WAIT).until(() -> t.count(READING) == 1);
        // Every object, a row each: far more than Ctrl+C lets it print.
        t.type("dumpheap\n");
        await().atMost(WAIT).until(() -> t.count("  TargetApp.Widget") > 1000);
        t.type("\u0003");
        await().atMost(WAIT).until(() -> t.count(READING) == 2);
        assertThat(t.screen()).contains("dumpheap: interrupted (Ctrl+C)");
        assertThat(t.count("  TargetApp.Widget")).isLessThan(widgets);
        // Paused to greet, then for the command: let go after each.
        assertThat(t.count("Process " + pid + " was paused for ")).isEqualTo(2);
        DacLiveProcessTest.assertRunsFree(app);

        // The session goes on: the next command reads the whole heap again.
        t.type("dumpheap -stat -type TargetApp.Widget\n");
        await().atMost(WAIT).until(() -> t.count(READING) == 3);
        assertThat(t.screen()).containsPattern("1,000,000 +40,000,000 +TargetApp\\.Widget");
        t.type("exit\n");
        assertThat(t.awaitExit(WAIT)).as(t.screen()).isZero();
        assertThat(t.count("Process " + pid + " was paused for ")).isEqualTo(3);
      }
      DacLiveProcessTest.assertRunsFree(app);
    }
  }

  /** {@code clrscope analyze -p PID} in a pseudo-terminal, its history in the test's directory. */
  private PromptTerminal analyzeInTerminal(long pid) throws Exception {
    return PromptTerminal.start(dir, "analyze -p " + pid + " --symbol-server none");
  }
}
