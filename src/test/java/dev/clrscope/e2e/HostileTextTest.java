package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Text from the target is shown, not obeyed: TargetApp's {@code hostile-text} puts an OSC that
 * retitles the window, BEL, an erase of the screen, a right-to-left override, an isolate, a C1 CSI
 * and DEL on its heap, as a thread's name and in an exception's message. In a table and in CSV
 * clrscope writes each as {@code \\u001b}, so none reaches the terminal; JSON carries the text
 * exactly, escaped as JSON escapes it.
 */
class HostileTextTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(90);

  /** What the table and CSV show of the text. */
  private static final String SHOWN =
      "clrscope-hostile:\\u001b]0;owned\\u0007\\u001b[2J\\u202egnirts\\u2066x\\u2069"
          + "\\u009b31m\\u007fend";

  private static TargetProcess app;
  private static long pid;

  @BeforeAll
  static void start() {
    // Through a shell that waits on it: analyze pauses it with ptrace (see DacLiveProcessTest).
    app = DacLiveProcessTest.startUnwaited(List.of());
    pid = app.ready().pid();
  }

  @AfterAll
  static void stop() {
    if (app != null) {
      app.close();
    }
  }

  /** Whether {@code text} holds a character a terminal would obey or that reorders text. */
  private static void assertNothingObeyed(String what, String text) {
    for (int i = 0; i < text.length(); i++) {
      char c = text.charAt(i);
      boolean obeyed =
          (c < 0x20 && c != '\n' && c != '\r' && c != '\t')
              || (c >= 0x7f && c <= 0x9f)
              || (c >= 0x202a && c <= 0x202e)
              || (c >= 0x2066 && c <= 0x2069);
      assertThat(obeyed).as("%s holds U+%04X at %d: %s", what, (int) c, i, text).isFalse();
    }
  }

  @Test
  void anExceptionsMessageIsShownEscapedAndItsThrowSiteIsTheUsersCode() throws Exception {
    List<RunningCli> watchers = new ArrayList<>();
    try {
      for (String format : List.of("table", "csv", "jsonl")) {
        watchers.add(
            Clrscope.start(
                Map.of(),
                Clrscope.root(),
                "exceptions",
                "-p",
                Long.toString(pid),
                "--format",
                format,
                "--type",
                "FormatException"));
      }
      for (RunningCli w : watchers) {
        await()
            .atMost(TIMEOUT)
            .until(
                () -> {
                  assertThat(w.process().isAlive()).as("%s", w.stderr()).isTrue();
                  return w.stderr().contains("Watching the exceptions");
                });
      }
      JsonNode answer = app.send("hostile-text");
      String text = answer.get("text").asText();
      String message = answer.get("message").asText();
      assertThat(message).contains(text);
      for (RunningCli w : watchers) {
        w.awaitLine(l -> l.contains("FormatException"), TIMEOUT);
      }
      List<CliResult> results = new ArrayList<>();
      for (RunningCli w : watchers) {
        w.interrupt();
        results.add(w.await(TIMEOUT));
      }
      for (CliResult r : results.subList(0, 2)) {
        assertThat(r.exitCode()).as("%s", r).isZero();
        assertNothingObeyed("stdout", r.stdout());
        assertNothingObeyed("stderr", r.stderr());
        assertThat(r.stdout()).contains(SHOWN).contains("TargetApp.HostileText.Parse");
      }
      // Without a terminal the table has every column: the framework's frame beside the user's.
      assertThat(results.get(0).stdout()).contains("System.Number.ThrowFormatException");

      CliResult jsonl = results.get(2);
      JsonNode row =
          TargetProcess.JSON.readTree(
              jsonl.stdoutLines().stream()
                  .filter(l -> l.contains("\"kind\":\"exception\""))
                  .findFirst()
                  .orElseThrow());
      assertThat(row.get("message").asText()).isEqualTo(message);
      assertThat(row.get("type").asText()).isEqualTo("System.FormatException");
      assertThat(row.get("throwSite").asText()).isEqualTo(answer.get("throwSite").asText());
      assertThat(row.get("thrownIn").asText()).isEqualTo("System.Number.ThrowFormatException");
    } finally {
      watchers.forEach(RunningCli::close);
    }
  }

  @Test
  void aStringOnTheHeapAndAThreadsNameAreShownEscaped() throws Exception {
    JsonNode answer = app.send("hostile-text");
    String text = answer.get("text").asText();
    List<String> target = AnalyzeCli.pid(pid);
    JsonNode mt =
        AnalyzeCli.one(target, "name2ee " + answer.get("holderType").asText()).get("methodTable");
    Map<String, JsonNode> statics =
        AnalyzeCli.byKey(AnalyzeCli.one(target, "dumpmt " + mt.asText()).get("fields"), "name");
    String held = statics.get("Held").get("value").asText();
    String named = statics.get("Named").get("value").asText();

    // JSON: the text exactly.
    JsonNode string = AnalyzeCli.one(target, "dumpobj " + held);
    assertThat(string.get("string").asText()).isEqualTo(text);

    for (String format : List.of("table", "csv")) {
      CliResult r =
          AnalyzeCli.run(
              target, format, "dumpobj " + held, "dumpobj " + named, "dumpheap -strings");
      assertThat(r.exitCode()).as("%s", r).isZero();
      assertNothingObeyed(format + " stdout", r.stdout());
      assertNothingObeyed(format + " stderr", r.stderr());
      // The string itself, the thread's _name field, and the heap's strings.
      assertThat(r.stdout().split(java.util.regex.Pattern.quote(SHOWN), -1).length - 1)
          .as("%s", r)
          .isGreaterThanOrEqualTo(3);
    }
  }
}
