package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * {@code clrscope dump-heap} against TargetApp holding a known number of objects of a known size
 * ({@code hold Widget N}: a Widget is 40 bytes on 64-bit .NET, a header and method table pointer, a
 * reference, a long and an int padded to 8).
 */
class DumpHeapCommandTest {
  private static final Duration TIMEOUT = Duration.ofSeconds(90);
  private static final int HELD = 123_457;

  @Test
  void countsEveryHeldObjectAndItsExactSize() {
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      assertThat(target.send("hold Widget " + HELD).get("held").asInt()).isEqualTo(HELD);

      CliResult r =
          Clrscope.run(
              TIMEOUT,
              "dump-heap",
              "-p",
              Long.toString(target.pid()),
              "--format",
              "json",
              "--type",
              "^TargetApp\\.Widget$");

      assertThat(r.exitCode()).as("%s", r).isZero();
      JsonNode doc = r.stdoutJson();
      assertThat(doc.path("problems")).as("%s", r).isEmpty();
      JsonNode types = doc.path("types");
      assertThat(types).hasSize(1);
      assertThat(types.get(0).path("type").asText()).isEqualTo("TargetApp.Widget");
      assertThat(types.get(0).path("count").asLong()).isEqualTo(HELD);
      assertThat(types.get(0).path("totalSize").asLong()).isEqualTo(HELD * 40L);
      assertThat(doc.path("objects").asLong()).isGreaterThan(HELD);
      assertThat(r.stderr()).contains("GC " + doc.path("gc").asLong() + " walked ");
      // The walk did not harm the target: it answers, and still holds every object.
      assertThat(target.send("counts").path("gen2").asInt()).isPositive();
      assertThat(target.send("release").get("released").asInt()).isEqualTo(HELD);
    }
  }

  @Test
  void aTableOfTheBiggestTypesFirst() {
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      target.send("hold Widget 50000");

      CliResult r =
          Clrscope.run(TIMEOUT, "dump-heap", "-p", Long.toString(target.pid()), "--top", "2");

      assertThat(r.exitCode()).as("%s", r).isZero();
      assertThat(r.stdoutLines().get(0)).matches(" +COUNT +TOTAL SIZE +TYPE");
      assertThat(r.stdoutLines()).hasSize(3);
      assertThat(r.stdoutLines().get(1)).matches(" +50000 +2000000 +TargetApp\\.Widget");
      assertThat(r.stderr()).contains("showing 2 types");
    }
  }
}
