package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code clrscope triage} on TriageApp's {@code healthy} (a worker waiting for jobs, jobs run on
 * the pool and awaited, a timer, a small cache, an async method waiting on a delay), live with its
 * watch and on a core: nothing found, and the report says what it checked; exit 0 even with {@code
 * --fail-on info}.
 */
class TriageHealthyTest {
  /** Every area a report checks, live (the watch) and on a core. */
  private static final List<String> AREAS =
      List.of(
          "deadlocks",
          "sync over async",
          "thread pool",
          "finalizer",
          "exceptions",
          "leak suspects",
          "duplicate strings",
          "collections",
          "large object heap",
          "delegates",
          "timers");

  @RegisterExtension static final TriageRun run = TriageRun.of("healthy");

  @ParameterizedTest
  @ValueSource(strings = {"live", "core"})
  void nothingIsFoundAndWhatWasCheckedIsSaid(String source) {
    CliResult r =
        source.equals("live")
            ? TriageCli.run("-p", Long.toString(run.pid()), "--fail-on", "info", "--format", "json")
            : TriageCli.run(run.core().toString(), "--fail-on", "info", "--format", "json");
    assertThat(r.exitCode()).as("%s", r).isZero();
    JsonNode report = r.stdoutJson();
    assertThat(report.get("findings")).as("%s", report.toPrettyString()).isEmpty();
    assertThat(report.get("findingCount").asInt()).isZero();
    List<String> areas = new ArrayList<>();
    report.get("checked").forEach(c -> areas.add(c.get("area").asText()));
    List<String> expected = new ArrayList<>(AREAS);
    if (source.equals("live")) {
      expected.add("live watch");
    }
    assertThat(areas).containsExactlyInAnyOrderElementsOf(expected);
    for (JsonNode c : report.get("checked")) {
      assertThat(c.get("result").asText()).doesNotContain("could not be checked");
    }
  }

  @Test
  void theTableSaysNothingWasFoundThenWhatWasChecked() {
    CliResult r = TriageCli.run(run.core().toString());
    assertThat(r.exitCode()).as("%s", r).isZero();
    List<String> lines = r.stdoutLines();
    assertThat(lines).contains("Findings       none", "Nothing found. What was checked:");
    int said = lines.indexOf("Nothing found. What was checked:");
    assertThat(lines.subList(said, lines.size())).contains("CHECKED", "deadlocks", "timers");
    assertThat(lines).noneMatch(l -> l.startsWith("SEVERITY"));
  }
}
