package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code clrscope triage} and exceptions: TriageApp's {@code exception} (thread payment-retry
 * caught a PaymentException whose inner exception is a TimeoutException) live and on a core, the
 * exception the thread last threw with its inner one, messages and the lines each was thrown at;
 * and {@code crash} under {@code DOTNET_DbgEnableMiniDump=1}: the core the runtime wrote on the
 * crash names the crashing thread, its signal and the unhandled exception, critical, exit 3.
 */
class TriageExceptionsTest {
  @TempDir static Path dir;
  @RegisterExtension static final TriageRun run = TriageRun.of("exception");

  /** The exception and its inner one, with the lines they were thrown at. */
  private static void assertThePaymentFailure(JsonNode finding, JsonNode facts) {
    JsonNode exceptions = finding.get("evidence").get("exceptions");
    assertThat(exceptions).hasSize(2);
    JsonNode outer = exceptions.get(0);
    JsonNode inner = exceptions.get(1);
    assertThat(outer.get("depth").asInt()).isZero();
    assertThat(outer.get("type").asText()).isEqualTo(facts.get("type").asText());
    assertThat(outer.get("message").asText()).isEqualTo(facts.get("message").asText());
    assertThat(outer.get("hresult").asText()).isEqualTo("0x80131500");
    assertThat(
            TriageCli.hasFrame(
                outer.get("frames"),
                facts.get("throwMethod").asText(),
                "Failures.cs",
                SourceMarkers.line(TriageCli.APP, "Failures.cs", "charge-throws")))
        .as("%s", outer)
        .isTrue();
    assertThat(inner.get("depth").asInt()).isEqualTo(1);
    assertThat(inner.get("type").asText()).isEqualTo(facts.get("innerType").asText());
    assertThat(inner.get("message").asText()).isEqualTo(facts.get("innerMessage").asText());
    assertThat(
            TriageCli.hasFrame(
                inner.get("frames"),
                facts.get("innerThrowMethod").asText(),
                "Failures.cs",
                SourceMarkers.line(TriageCli.APP, "Failures.cs", "gateway-throws")))
        .as("%s", inner)
        .isTrue();
  }

  @ParameterizedTest
  @ValueSource(strings = {"live", "core"})
  void theExceptionTheThreadLastThrewWithItsInnerOne(String source) {
    JsonNode facts = run.facts();
    JsonNode report = run.report(source, "--no-heap");
    JsonNode f = TriageCli.finding(report, "exception");
    assertThat(TriageCli.findings(report, "crash")).isEmpty();
    assertThat(f.get("severity").asText()).isEqualTo("info");
    JsonNode thread = f.get("evidence").get("threads").get(0);
    assertThat(thread.get("osId").asInt()).isEqualTo(facts.get("tid").asInt());
    assertThat(thread.get("name").asText()).isEqualTo(facts.get("thread").asText());
    assertThat(f.get("title").asText())
        .isEqualTo(
            "Thread "
                + facts.get("tid").asInt()
                + " ("
                + facts.get("thread").asText()
                + ") threw "
                + facts.get("type").asText()
                + ": "
                + facts.get("message").asText()
                + " (inner: "
                + facts.get("innerType").asText()
                + "), at "
                + facts.get("throwMethod").asText()
                + " (Failures.cs:"
                + SourceMarkers.line(TriageCli.APP, "Failures.cs", "charge-throws")
                + ").");
    assertThePaymentFailure(f, facts);
  }

  @Test
  void aCoreWrittenOnACrashNamesTheThreadItsSignalAndTheUnhandledException() throws Exception {
    Path crashDir = Files.createDirectories(dir.resolve("crash"));
    Map<String, String> env =
        Map.of(
            "DOTNET_DbgEnableMiniDump", "1",
            "DOTNET_DbgMiniDumpType", "2",
            "DOTNET_DbgMiniDumpName", crashDir.resolve("crash.%p.core").toString());
    Path crashCore;
    JsonNode crash;
    try (TargetProcess crashing = TriageCli.start(env)) {
      crash = crashing.send("crash");
      assertThat(crashing.waitFor(Duration.ofMinutes(2))).isEqualTo(134);
      crashCore = crashDir.resolve("crash." + crashing.ready().pid() + ".core");
    }
    assertThat(crashCore).isRegularFile();
    CliResult r =
        TriageCli.run(crashCore.toString(), "--no-heap", "--format", "json", "--fail-on", "error");
    assertThat(r.exitCode()).as("%s", r).isEqualTo(3);
    JsonNode report = r.stdoutJson();
    JsonNode f = TriageCli.finding(report, "crash");
    assertThat(report.get("findings").get(0)).isEqualTo(f);
    assertThat(f.get("severity").asText()).isEqualTo("critical");
    int tid = crash.get("tid").asInt();
    assertThat(TriageCli.fact(f, "signal").asText()).isEqualTo("signal 6 (SIGABRT)");
    JsonNode thread = f.get("evidence").get("threads").get(0);
    assertThat(thread.get("osId").asInt()).isEqualTo(tid);
    assertThat(thread.get("name").asText()).isEqualTo(crash.get("thread").asText());
    assertThat(f.get("title").asText())
        .isEqualTo(
            "The process crashed on thread "
                + tid
                + " ("
                + crash.get("thread").asText()
                + "), stopped by signal 6 (SIGABRT), throwing "
                + crash.get("type").asText()
                + ": "
                + crash.get("message").asText()
                + " (inner: "
                + crash.get("innerType").asText()
                + ").");
    assertThePaymentFailure(f, crash);
    // The crashing thread's exception is the crash, not a second finding of its own.
    assertThat(TriageCli.findings(report, "exception")).isEmpty();
  }
}
