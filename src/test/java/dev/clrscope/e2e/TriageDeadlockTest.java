package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * {@code clrscope triage} on TriageApp's {@code deadlock} (thread transfer-in holds a Ledger's
 * Monitor and waits for a System.Threading.Lock that transfer-out holds while it waits for the
 * Ledger), live and on a core, on .NET 8 and 10: one critical finding naming both threads, both
 * lock types and addresses, the frame where each waits with its line, and exit 3 with {@code
 * --fail-on}; the report's table fits 80 columns; {@code syncblk} counts the Ledger's waiter.
 */
class TriageDeadlockTest {
  @TempDir static Path dir;
  @RegisterExtension static final TriageRun run = TriageRun.of("deadlock");

  /**
   * The deadlock live and on a core (written by {@code clrscope dump}) on .NET 8 (TriageApp
   * published self-contained, where the journal is a plain object's Monitor: .NET 8 has no
   * System.Threading.Lock) and on .NET 10: the same facts on each, {@link #assertCycle}.
   */
  @ParameterizedTest
  @EnumSource(
      value = Runtime.class,
      names = {"NET8", "NET10"})
  @RunsCommands({"triage live", "triage CORE"})
  void theCycleWithBothThreadsBothLocksAndWhereEachWaitsLiveAndOnACore(Runtime runtime) {
    try (TargetProcess other =
        TargetProcess.startUnwaited(runtime, TriageCli.APP, List.of(), Map.of())) {
      JsonNode made = other.send("deadlock");
      assertThat(made.get("lockType").asText())
          .isEqualTo(runtime == Runtime.NET8 ? "System.Object" : "System.Threading.Lock");
      String pid = Long.toString(other.ready().pid());
      assertCycle(TriageCli.live(other), made, "-p " + pid);
      Path written = TriageCli.dump(other, dir.resolve("deadlock-" + runtime + ".core"));
      assertCycle(TriageCli.json(written.toString()), made, written.toString());
    }
  }

  /**
   * One critical finding, first: both threads by OS id, managed id and name; both locks' types,
   * roles (a Monitor's or a Lock's owner and waiter) and addresses, the Ledger's size; each
   * thread's role (what it holds, what it waits for, held by whom); the frame where each waits at
   * its marked line; the next command on {@code target} ({@code -p PID} or the core's path).
   */
  private static void assertCycle(JsonNode report, JsonNode made, String target) {
    JsonNode f = TriageCli.finding(report, "deadlock");
    assertThat(report.get("findings").get(0)).isEqualTo(f);
    assertThat(f.get("severity").asText()).isEqualTo("critical");
    String in = made.get("inThread").asText();
    String out = made.get("outThread").asText();
    int inTid = made.get("inTid").asInt();
    int outTid = made.get("outTid").asInt();
    assertThat(f.get("title").asText())
        .contains(inTid + " (" + in + ")")
        .contains(outTid + " (" + out + ")");
    Map<String, JsonNode> threads = new HashMap<>();
    f.get("evidence").get("threads").forEach(t -> threads.put(t.get("name").asText(), t));
    assertThat(threads.keySet()).containsExactlyInAnyOrder(in, out);
    assertThat(threads.get(in).get("osId").asInt()).isEqualTo(inTid);
    assertThat(threads.get(in).get("managedId").asInt()).isEqualTo(made.get("inManagedId").asInt());
    assertThat(threads.get(out).get("osId").asInt()).isEqualTo(outTid);
    assertThat(threads.get(out).get("managedId").asInt())
        .isEqualTo(made.get("outManagedId").asInt());

    // The two locks: the Ledger's Monitor that transfer-in holds, the journal that transfer-out
    // holds (a Lock, or on .NET 8 a plain object's Monitor).
    Map<String, JsonNode> locks = new HashMap<>();
    f.get("evidence").get("objects").forEach(o -> locks.put(o.get("type").asText(), o));
    String monitorType = made.get("monitorType").asText();
    String lockType = made.get("lockType").asText();
    boolean isLock = lockType.equals("System.Threading.Lock");
    assertThat(locks.keySet()).containsExactlyInAnyOrder(monitorType, lockType);
    String ledger = locks.get(monitorType).get("address").asText();
    String lock = locks.get(lockType).get("address").asText();
    assertThat(locks.get(monitorType).get("size").asLong()).isEqualTo(24);
    assertThat(locks.get(monitorType).get("role").asText())
        .isEqualTo(
            "Monitor held by "
                + inTid
                + " ("
                + in
                + "), waited for by "
                + outTid
                + " ("
                + out
                + ")");
    assertThat(locks.get(lockType).get("role").asText())
        .isEqualTo(
            (isLock ? "Lock" : "Monitor")
                + " held by "
                + outTid
                + " ("
                + out
                + "), waited for by "
                + inTid
                + " ("
                + in
                + ")");
    assertThat(threads.get(in).get("role").asText())
        .isEqualTo(
            "holds "
                + monitorType
                + " "
                + ledger
                + "; waits for "
                + lockType
                + " "
                + lock
                + ", held by "
                + outTid
                + " ("
                + out
                + ")");
    assertThat(threads.get(out).get("role").asText())
        .isEqualTo(
            "holds "
                + lockType
                + " "
                + lock
                + "; waits for "
                + monitorType
                + " "
                + ledger
                + ", held by "
                + inTid
                + " ("
                + in
                + ")");
    assertThat(
            TriageCli.hasFrame(
                threads.get(in).get("frames"),
                made.get("inMethod").asText(),
                "Deadlock.cs",
                SourceMarkers.line(
                    TriageCli.APP,
                    "Deadlock.cs",
                    isLock ? "transfer-in-waits" : "transfer-in-waits-monitor")))
        .as("%s", threads.get(in))
        .isTrue();
    assertThat(
            TriageCli.hasFrame(
                threads.get(out).get("frames"),
                made.get("outMethod").asText(),
                "Deadlock.cs",
                SourceMarkers.line(TriageCli.APP, "Deadlock.cs", "transfer-out-waits")))
        .as("%s", threads.get(out))
        .isTrue();
    assertThat(f.get("next").get(0).asText())
        .isEqualTo("clrscope analyze " + target + " -c syncblk");
  }

  @Test
  void failOnCriticalExitsWith3AndTheTableFits80Columns() {
    CliResult r = TriageCli.run(run.core().toString(), "--fail-on", "critical");
    assertThat(r.exitCode()).as("%s", r).isEqualTo(3);
    List<String> lines = r.stdoutLines();
    int findings = lines.indexOf("SEVERITY  FINDING");
    assertThat(findings).as("%s", r).isPositive();
    assertThat(lines.get(findings + 1)).isEqualTo("critical  deadlock");
    // Everything from the findings on; the head names the core's (temporary, long) path.
    assertThat(lines.subList(findings, lines.size()))
        .allSatisfy(l -> assertThat(l.length()).as(l).isLessThanOrEqualTo(80));
    CliResult quiet = TriageCli.run(run.core().toString(), "--fail-on", "bogus");
    assertThat(quiet.exitCode()).as("%s", quiet).isEqualTo(2);
    assertThat(quiet.stderr()).contains("give critical, error, warning or info");
  }

  @Test
  void theHtmlReportHoldsEachThreadsStackFoldedWithItsLines() throws Exception {
    Path html = dir.resolve("deadlock.html");
    CliResult r = TriageCli.run(run.core().toString(), "--no-heap", "--html", html.toString());
    assertThat(r.exitCode()).as("%s", r).isZero();
    assertThat(r.stderr()).contains("Wrote " + html + ".");
    HeadlessChromium.Rendered page = HeadlessChromium.render(html, dir);
    int line = SourceMarkers.line(TriageCli.APP, "Deadlock.cs", "transfer-in-waits");
    // Folded (no open attribute) until clicked, the thread in its summary, its frames with lines.
    assertThat(page.dom())
        .contains(
            "<details class=\"stack\"><summary>thread "
                + run.facts().get("inTid").asInt()
                + " ("
                + run.facts().get("inThread").asText()
                + "): holds ")
        .contains(
            "<li>"
                + run.facts().get("inMethod").asText()
                + " <span class=\"line\">Deadlock.cs:"
                + line
                + "</span></li>")
        .contains("<article class=\"finding sev-critical\" data-kind=\"deadlock\">")
        .doesNotContain("<details class=\"stack\" open");
    assertThat(page.console()).noneMatch(l -> l.contains("Uncaught") || l.contains("Error"));
  }

  @Test
  void syncblkCountsTheThreadWaitingForTheLedger() {
    JsonNode rows = AnalyzeCli.one(AnalyzeCli.core(run.core()), "syncblk");
    JsonNode ledger = null;
    for (JsonNode row : rows) {
      if (row.get("type").asText().equals(run.facts().get("monitorType").asText())) {
        ledger = row;
      }
    }
    assertThat(ledger).as("%s", rows).isNotNull();
    assertThat(ledger.get("owningOsThreadId").asInt()).isEqualTo(run.facts().get("inTid").asInt());
    // MonitorHeld 3: owned (1) and one thread waiting (2).
    assertThat(ledger.get("monitorHeld").asInt()).isEqualTo(3);
    assertThat(ledger.get("waiters").asInt()).isEqualTo(1);
  }
}
