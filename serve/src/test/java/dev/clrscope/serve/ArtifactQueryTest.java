package dev.clrscope.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clrscope.ipc.client.DumpType;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class ArtifactQueryTest {
  @Test
  void readsEachEndpointsParametersWithDotnetMonitorsSpellingsToo() {
    assertThat(
            ArtifactQuery.parse(
                "pid=42&duration=500ms&profile=cpu-sampling%2Cgc-collect", "/trace"))
        .isEqualTo(
            new ArtifactQuery(
                42, Duration.ofMillis(500), "cpu-sampling,gc-collect", DumpType.HEAP));
    assertThat(ArtifactQuery.parse("pid=42&durationSeconds=90", "/trace").duration())
        .isEqualTo(Duration.ofSeconds(90));
    assertThat(ArtifactQuery.parse("pid=42", "/trace").duration())
        .isEqualTo(Duration.ofSeconds(30));
    assertThat(ArtifactQuery.parse("pid=42&type=WithHeap", "/dump").dumpType())
        .isEqualTo(DumpType.HEAP);
    assertThat(ArtifactQuery.parse("pid=42&type=mini", "/dump").dumpType())
        .isEqualTo(DumpType.MINI);
  }

  @Test
  void everyBadValueIsA400ThatSaysWhatIsAllowed() {
    bad(
        "pid=0",
        "/gcdump",
        "pid: a process id is a number from 1 to 2147483647 in digits 0-9, got '0'");
    bad(
        "pid=-3",
        "/gcdump",
        "pid: a process id is a number from 1 to 2147483647 in digits 0-9, got '-3'");
    // Only what names one process: no sign, no leading zero, no other script's digits.
    bad(
        "pid=%2B42",
        "/gcdump", "pid: a process id is a number from 1 to 2147483647 in digits 0-9, got '+42'");
    bad(
        "pid=042",
        "/gcdump",
        "pid: a process id is a number from 1 to 2147483647 in digits 0-9, got '042'");
    bad(
        "pid=%D9%A1%D9%A2",
        "/gcdump",
        "pid: a process id is a number from 1 to 2147483647 in digits 0-9, got '\u0661\u0662'");
    bad(
        "pid=%2042",
        "/gcdump", "pid: a process id is a number from 1 to 2147483647 in digits 0-9, got ' 42'");
    bad(
        "pid=2147483648",
        "/gcdump",
        "pid: a process id is a number from 1 to 2147483647 in digits 0-9, got '2147483648'");
    bad("", "/gcdump", "pid is required; POST /gcdump?pid=PID");
    bad("pid=1&pid=2", "/gcdump", "parameter 'pid' given twice");
    bad(
        "pid=1&duration=1e9",
        "/trace",
        "duration takes seconds (30), or 500ms, 30s, 10m, 1h, up to 3600 s; got '1e9'");
    bad("pid=1&duration=2h", "/trace", "duration must be from 1 ms to 3600 s, got '2h'");
    bad("pid=1&duration=0", "/trace", "duration must be from 1 ms to 3600 s, got '0'");
    bad(
        "pid=1&durationSeconds=5s",
        "/trace",
        "durationSeconds takes seconds (30), up to 3600 s; got '5s'");
    bad(
        "pid=1&duration=1&durationSeconds=1",
        "/trace",
        "give duration or durationSeconds, not both");
    bad("pid=1&profile=", "/trace", "profile is empty; leave it out for the default profiles");
    bad("pid=1&type=tiny", "/dump", "type takes mini, heap (WithHeap), triage or full; got 'tiny'");
    bad("pid=1&duration=5", "/gcdump", "unknown parameter 'duration'; POST /gcdump?pid=PID");
    bad("pid=%zz", "/gcdump", "the query is not URL-encoded properly: %zz");
    bad(
        "pid=" + "9".repeat(3000),
        "/gcdump",
        "the query is 3004 characters long; POST /gcdump?pid=PID");
  }

  private static void bad(String query, String path, String message) {
    assertThatThrownBy(() -> ArtifactQuery.parse(query, path))
        .isInstanceOfSatisfying(ArtifactProblem.class, p -> assertThat(p.status()).isEqualTo(400))
        .hasMessage(message);
  }
}
