package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
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

  @TempDir Path dir;

  /** What the terminal showed so far. */
  private final ByteArrayOutputStream screen = new ByteArrayOutputStream();

  private String screen() {
    synchronized (screen) {
      return screen.toString(StandardCharsets.UTF_8);
    }
  }

  private int count(String text) {
    Matcher m = Pattern.compile(Pattern.quote(text)).matcher(screen());
    int n = 0;
    while (m.find()) {
      n++;
    }
    return n;
  }

  @Test
  void completionHistoryErrorsAndAPauseOnlyWhileACommandRuns() throws Exception {
    try (TargetProcess app = DacLiveProcessTest.startUnwaited(List.of())) {
      app.send("facts 100");
      long pid = app.ready().pid();
      Process terminal = analyzeInTerminal(pid);
      Thread copier = copy(terminal.getInputStream());
      try (OutputStream keys = terminal.getOutputStream()) {
        String paused = "Process " + pid + " was paused for ";
        await().atMost(WAIT).until(() -> screen().contains("Type help for the commands"));
        await().atMost(WAIT).until(() -> count(paused) == 1);

        // "dumph" and Tab: the prompt completes the command's name.
        type(keys, "dumph\t-stat -type TargetApp.FactItem[]\n");
        await().atMost(WAIT).until(() -> screen().contains("Total 1 objects"));
        await().atMost(WAIT).until(() -> count(paused) == 2);
        // Between commands the process runs.
        DacLiveProcessTest.assertRunsFree(app);

        type(keys, "nosuch\n");
        await()
            .atMost(WAIT)
            .until(() -> screen().contains("no command nosuch (help lists the commands"));
        // Ctrl+C clears the line; the prompt goes on. What is typed before the prompt has handled
        // the interrupt can be lost, so the next line waits for the next prompt (each turns on
        // bracketed paste as it starts reading: ESC [?2004h).
        int prompts = count(READING);
        type(keys, "dumpheap -stat\u0003");
        await().atMost(WAIT).until(() -> count(READING) > prompts);
        type(keys, "exit\n");
        assertThat(terminal.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).as(screen()).isTrue();
        assertThat(terminal.exitValue()).as(screen()).isZero();
      } finally {
        terminal.destroyForcibly();
        copier.join(10_000);
      }
      assertThat(count("Process " + pid + " was paused for ")).isEqualTo(2);
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
      Process terminal = analyzeInTerminal(pid);
      Thread copier = copy(terminal.getInputStream());
      try (OutputStream keys = terminal.getOutputStream()) {
        await().atMost(WAIT).until(() -> count(READING) == 1);
        // Every object, a row each: far more than Ctrl+C lets it print.
        type(keys, "dumpheap\n");
        await().atMost(WAIT).until(() -> count("  TargetApp.Widget") > 1000);
        type(keys, "\u0003");
        await().atMost(WAIT).until(() -> count(READING) == 2);
        assertThat(screen()).contains("dumpheap: interrupted (Ctrl+C)");
        assertThat(count("  TargetApp.Widget")).isLessThan(widgets);
        // Paused to greet, then for the command: let go after each.
        assertThat(count("Process " + pid + " was paused for ")).isEqualTo(2);
        DacLiveProcessTest.assertRunsFree(app);

        // The session goes on: the next command reads the whole heap again.
        type(keys, "dumpheap -stat -type TargetApp.Widget\n");
        await().atMost(WAIT).until(() -> count(READING) == 3);
        assertThat(screen()).containsPattern("1,000,000 +40,000,000 +TargetApp\\.Widget");
        type(keys, "exit\n");
        assertThat(terminal.waitFor(WAIT.toSeconds(), TimeUnit.SECONDS)).as(screen()).isTrue();
        assertThat(terminal.exitValue()).as(screen()).isZero();
      } finally {
        terminal.destroyForcibly();
        copier.join(10_000);
      }
      assertThat(count("Process " + pid + " was paused for ")).isEqualTo(3);
      DacLiveProcessTest.assertRunsFree(app);
    }
  }

  /** What each prompt writes as it starts reading a line: bracketed paste turned on. */
  private static final String READING = "\u001b[?2004h";

  /** {@code clrscope analyze -p PID} in a pseudo-terminal, its history in the test's directory. */
  private Process analyzeInTerminal(long pid) throws Exception {
    ProcessBuilder b =
        new ProcessBuilder(
            "script",
            "-qfec",
            Clrscope.launcher() + " analyze -p " + pid + " --symbol-server none",
            "/dev/null");
    b.environment().put("XDG_CACHE_HOME", dir.toString());
    b.environment().put("COLUMNS", "200");
    b.environment().put("TERM", "xterm");
    b.redirectErrorStream(true);
    return b.start();
  }

  private static void type(OutputStream keys, String text) throws Exception {
    keys.write(text.getBytes(StandardCharsets.UTF_8));
    keys.flush();
  }

  private Thread copy(InputStream in) {
    Thread t =
        new Thread(
            () -> {
              byte[] buf = new byte[8192];
              try {
                for (int n; (n = in.read(buf)) > 0; ) {
                  synchronized (screen) {
                    screen.write(buf, 0, n);
                  }
                }
              } catch (java.io.IOException e) {
                // The terminal closed.
              }
            },
            "prompt-screen");
    t.setDaemon(true);
    t.start();
    return t;
  }
}
