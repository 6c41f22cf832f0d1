package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What only a live process shows, from {@code triage -p}'s watch of its counters: TriageApp's
 * {@code churn 1000} throws about 1,000 exceptions a second and forces a full compacting GC of 32
 * MB every 10 ms; the report has the time in GC and the exceptions per second over the watch, and
 * the watch's length. The app is also deadlocked ({@code deadlock}), which the read after the watch
 * finds: a Ctrl+C during a watch of a minute ends the watch, and triage goes on to the read and the
 * report, with what the watch saw and its length said; a second Ctrl+C (after the watch, during the
 * read) stops triage, the process let go.
 */
class TriageLiveWatchTest {
  @RegisterExtension static final TriageRun run = TriageRun.of("deadlock").withoutCore();
  private static JsonNode deadlock;
  private static JsonNode facts;

  @BeforeAll
  static void start() {
    deadlock = run.facts();
    facts = run.app().send("churn 1000");
  }

  private static long pid() {
    return run.pid();
  }

  @Test
  void timeInGcAndExceptionsPerSecondOverTheWatch() {
    JsonNode report = TriageCli.json("-p", Long.toString(pid()), "--duration", "3s", "--no-heap");
    JsonNode gc = TriageCli.finding(report, "gc-time");
    assertThat(gc.get("severity").asText()).isEqualTo("warning");
    assertThat(TriageCli.fact(gc, "GC pause percent").asDouble()).isBetween(10.0, 100.0);
    assertThat(TriageCli.fact(gc, "seconds watched").asDouble()).isBetween(2.5, 10.0);
    JsonNode thrown = TriageCli.finding(report, "exception-rate");
    double rate = facts.get("rate").asDouble();
    assertThat(TriageCli.fact(thrown, "exceptions per second").asDouble())
        .isBetween(rate * 0.5, rate * 1.2);
    assertThat(thrown.get("next").get(0).asText())
        .isEqualTo("clrscope exceptions -p " + pid() + " --duration 10s");
    assertThat(check(report, "live watch")).doesNotContain("cut short");
  }

  /**
   * Ctrl+C 3 s into a watch of 60 s, as dotnet-counters' users stop a collection: the watch ends,
   * the process is read and the report drawn with the watch's findings over the 3 s it watched
   * (time in GC, exceptions per second at the app's rate) and the deadlock the read found (both
   * threads, both lock types), the watch said cut short; exit 3 for the deadlock with {@code
   * --fail-on critical}, long before the minute is up, and the process let go.
   */
  @Test
  void ctrlCDuringTheWatchEndsItAndTriageGoesOnWithWhatItSaw() throws IOException {
    long started = System.nanoTime();
    CliResult r;
    double pressedAfter;
    try (RunningCli cli = watching("--no-heap", "--fail-on", "critical")) {
      long watching = System.nanoTime();
      // The user watches for 3 s, then presses Ctrl+C: the watch's counters come once a second.
      sleep(Duration.ofSeconds(3));
      pressedAfter = (System.nanoTime() - watching) / 1e9;
      cli.interrupt();
      r = cli.await(TriageCli.TIMEOUT);
    }
    double took = (System.nanoTime() - started) / 1e9;
    assertThat(r.exitCode()).as("%s", r).isEqualTo(3);
    assertThat(took).as("%s", r).isLessThan(40);
    List<String> err = r.stderr().lines().toList();
    assertThat(err)
        .as("%s", r)
        .anyMatch(
            l ->
                l.matches(
                    "The watch was cut short by Ctrl\\+C after [0-9.]+ s; reading process "
                        + pid()
                        + " paused \\(Ctrl\\+C again stops\\)\\."))
        .anyMatch(l -> l.startsWith("Process " + pid() + " was paused for "))
        .noneMatch(l -> l.contains("stopped by"));

    JsonNode report = r.stdoutJson();
    JsonNode gc = TriageCli.finding(report, "gc-time");
    double watched = TriageCli.fact(gc, "seconds watched").asDouble();
    assertThat(watched).isBetween(pressedAfter - 0.5, pressedAfter + 5);
    assertThat(TriageCli.fact(gc, "GC pause percent").asDouble()).isBetween(10.0, 100.0);
    JsonNode thrown = TriageCli.finding(report, "exception-rate");
    double rate = facts.get("rate").asDouble();
    assertThat(TriageCli.fact(thrown, "exceptions per second").asDouble())
        .isBetween(rate * 0.5, rate * 1.2);
    assertThat(TriageCli.fact(thrown, "seconds watched").asDouble()).isEqualTo(watched);
    Matcher said =
        Pattern.compile(
                "cut short by Ctrl\\+C after ([0-9.]+) s of 60 s; [0-9.]+% paused in GC,"
                    + " [0-9.]+ exceptions/s, .* over the \\1 s watched")
            .matcher(check(report, "live watch"));
    assertThat(said.matches()).as("%s", check(report, "live watch")).isTrue();
    assertThat(Double.parseDouble(said.group(1))).isCloseTo(watched, within(0.11));

    JsonNode f = TriageCli.finding(report, "deadlock");
    assertThat(report.get("findings").get(0)).isEqualTo(f);
    Map<String, JsonNode> threads = new HashMap<>();
    f.get("evidence").get("threads").forEach(t -> threads.put(t.get("name").asText(), t));
    String in = deadlock.get("inThread").asText();
    String out = deadlock.get("outThread").asText();
    assertThat(threads.keySet()).containsExactlyInAnyOrder(in, out);
    assertThat(threads.get(in).get("osId").asInt()).isEqualTo(deadlock.get("inTid").asInt());
    assertThat(threads.get(out).get("osId").asInt()).isEqualTo(deadlock.get("outTid").asInt());
    List<String> lockTypes = new ArrayList<>();
    f.get("evidence").get("objects").forEach(o -> lockTypes.add(o.get("type").asText()));
    assertThat(lockTypes)
        .containsExactlyInAnyOrder(
            deadlock.get("monitorType").asText(), deadlock.get("lockType").asText());
    DacLiveProcessTest.assertRunsFree(run.app());
  }

  /**
   * A second Ctrl+C, once the first has ended the watch and the process is being read, stops triage
   * as Ctrl+C stops any command that reads through the DAC: one line, exit 130, nothing on stdout,
   * the process let go.
   */
  @Test
  void aSecondCtrlCAfterTheWatchStopsTriageAndLetsTheProcessGo() throws IOException {
    try (RunningCli cli = watching()) {
      cli.interrupt();
      cli.awaitStderrLine(
          l -> l.startsWith("The watch was cut short by Ctrl+C"), TriageCli.TIMEOUT);
      cli.interrupt();
      CliResult r = cli.await(TriageCli.TIMEOUT);
      assertThat(r.exitCode()).as("%s", r).isEqualTo(130);
      assertThat(r.stdout()).as("%s", r).isEmpty();
      List<String> err = r.stderr().lines().toList();
      assertThat(err.get(err.size() - 1))
          .as("%s", r)
          .isEqualTo("clrscope triage: stopped by SIGINT; process " + pid() + " was let go");
    }
    DacLiveProcessTest.assertRunsFree(run.app());
  }

  /**
   * {@code triage -p PID --duration 60s --format json} with {@code more}, once its watch has begun
   * (it says so on stderr once the counters' session runs).
   */
  private static RunningCli watching(String... more) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "triage",
                "-p",
                Long.toString(pid()),
                "--duration",
                "60s",
                "--format",
                "json",
                "--symbol-server",
                "none"));
    args.addAll(List.of(more));
    RunningCli cli = Clrscope.start(Map.of(), Clrscope.root(), args.toArray(String[]::new));
    try {
      cli.awaitStderrLine(l -> l.startsWith("Watching process " + pid() + " "), TriageCli.TIMEOUT);
    } catch (RuntimeException | AssertionError e) {
      cli.close();
      throw e;
    }
    return cli;
  }

  private static String check(JsonNode report, String area) {
    for (JsonNode c : report.get("checked")) {
      if (c.get("area").asText().equals(area)) {
        return c.get("result").asText();
      }
    }
    throw new AssertionError("no check of " + area + " in " + report.toPrettyString());
  }

  private static void sleep(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }
}
