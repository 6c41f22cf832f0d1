package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A core whose PT_LOAD segment holding the {@code TargetApp.Widget} type's memory was moved away
 * (issue 31: {@code dump-heap report} printed a few hundred objects, exit 0, no warning, where the
 * heap held 123,457 Widgets more). The walk cannot size an object whose type it cannot read, so it
 * stops there; every command that walks the heap says so, with the bytes it did not walk, in the
 * table's warnings, in JSON's {@code problems}, and with exit 1 after what it could read.
 */
class DamagedCoreHeapTest {
  private static final Duration TIMEOUT = Duration.ofMinutes(3);

  /** The count. */
  private static final int WIDGETS = 123_457;

  /** A Widget's size: header, method table, its long and its reference. */
  private static final int WIDGET_SIZE = 40;

  @TempDir static Path dir;
  private static Path whole;
  private static Path damaged;
  private static long widgetType;

  @BeforeAll
  static void damage() throws Exception {
    try (TargetProcess app = TargetProcess.start(DotnetApps.TARGET_APP)) {
      assertThat(app.send("hold Widget " + WIDGETS).get("held").asInt()).isEqualTo(WIDGETS);
      whole = dir.resolve("whole.core");
      CliResult r =
          Clrscope.run(
              TIMEOUT,
              "dump",
              "-p",
              Long.toString(app.pid()),
              "--type",
              "heap",
              "-o",
              whole.toString());
      assertThat(r.exitCode()).as("%s", r).isZero();
    }
    widgetType =
        AnalyzeCli.address(
            AnalyzeCli.one(AnalyzeCli.core(whole), "name2ee TargetApp.Widget").get("methodTable"));
    damaged = dir.resolve("damaged.core");
    Files.copy(whole, damaged);
    // Far from anything a process maps: the memory the segment held is no longer in the core.
    ElfLoads.move(damaged, widgetType, 0x100_0000_0000L);
  }

  private static CliResult report(Path core, String format) {
    return Clrscope.run(TIMEOUT, "dump-heap", "report", core.toString(), "--format", format);
  }

  @Test
  void theWholeCoreHasEveryWidgetAndNoProblem() {
    CliResult r = report(whole, "json");
    assertThat(r.exitCode()).as("%s", r).isZero();
    JsonNode doc = r.stdoutJson();
    assertThat(doc.get("problems")).as("%s", r).isEmpty();
    assertThat(doc.has("bytesNotWalked")).as("%s", r).isFalse();
    assertThat(doc.has("problemCounts")).as("%s", r).isFalse();
    assertThat(count(doc, "TargetApp.Widget")).isEqualTo(WIDGETS);
  }

  @Test
  void dumpHeapReportSaysWhatItCouldNotReadInJson() {
    long wholeObjects = report(whole, "json").stdoutJson().get("objects").asLong();
    CliResult r = report(damaged, "json");
    assertThat(r.exitCode()).as("%s", r).isEqualTo(1);
    JsonNode doc = r.stdoutJson();
    // What could be read is printed, and said to be part of the heap only.
    assertThat(count(doc, "TargetApp.Widget")).as("%s", r).isZero();
    assertThat(doc.get("objects").asLong()).isLessThanOrEqualTo(wholeObjects - WIDGETS);
    assertThat(doc.get("problemCounts").get("typeUnreadable").asInt()).as("%s", r).isPositive();
    // Every Widget lies after the first one of its segment, where the walk stopped.
    assertThat(doc.get("bytesNotWalked").asLong())
        .isGreaterThanOrEqualTo((long) WIDGETS * WIDGET_SIZE);
    assertThat(doc.get("problems").toString())
        .contains("0x" + Long.toHexString(widgetType) + ", is not in the dump");
    assertOneErrorLine(r, "clrscope dump-heap report: ");
  }

  @Test
  void dumpHeapReportWarnsInItsTable() {
    CliResult r = report(damaged, "table");
    assertThat(r.exitCode()).as("%s", r).isEqualTo(1);
    assertThat(r.stdout()).as("%s", r).doesNotContain("TargetApp.Widget");
    assertThat(r.stderr())
        .as("%s", r)
        .contains("warning: segment 0x")
        .contains("the object's type, method table 0x" + Long.toHexString(widgetType))
        .containsPattern(
            "clrscope dump-heap report: the heap was not read whole: [0-9,]+ bytes of the heap not"
                + " walked: [0-9]+ objects? whose type cannot be read");
    assertOneErrorLine(r, "clrscope dump-heap report: ");
  }

  @Test
  void analyzeDumpheapSaysItToo() {
    CliResult r = AnalyzeCli.run(AnalyzeCli.core(damaged), "json", "dumpheap -stat");
    assertThat(r.exitCode()).as("%s", r).isEqualTo(1);
    List<JsonNode> docs = AnalyzeCli.documents(r);
    assertThat(docs).as("%s", r).hasSize(1);
    JsonNode doc = docs.get(0);
    assertThat(doc.get("problemCounts").get("typeUnreadable").asInt()).as("%s", r).isPositive();
    assertThat(doc.get("bytesNotWalked").asLong())
        .isGreaterThanOrEqualTo((long) WIDGETS * WIDGET_SIZE);
    assertThat(doc.get("problems")).as("%s", r).isNotEmpty();
    assertThat(doc.get("types").toString()).doesNotContain("TargetApp.Widget");
    assertThat(r.stderr()).as("%s", r).contains("warning: the heap was not read whole: ");
    assertOneErrorLine(r, "clrscope analyze: ");
    // The whole core: no problem, no warning, exit 0.
    CliResult w = AnalyzeCli.run(AnalyzeCli.core(whole), "json", "dumpheap -stat");
    assertThat(w.exitCode()).as("%s", w).isZero();
    assertThat(AnalyzeCli.documents(w).get(0).has("problems")).as("%s", w).isFalse();
    assertThat(w.stderr()).as("%s", w).doesNotContain("warning");
  }

  @Test
  void analyzeCommandsOnTheGraphSayItToo() {
    CliResult r = AnalyzeCli.run(AnalyzeCli.core(damaged), "json", "dominators -top 3");
    assertThat(r.exitCode()).as("%s", r).isEqualTo(1);
    assertThat(AnalyzeCli.documents(r)).as("%s", r).hasSize(1);
    assertThat(r.stderr()).as("%s", r).contains("warning: the heap was not read whole: ");
    assertOneErrorLine(r, "clrscope analyze: ");
  }

  private static long count(JsonNode report, String type) {
    for (JsonNode t : report.get("types")) {
      if (t.get("type").asText().equals(type)) {
        return t.get("count").asLong();
      }
    }
    return 0;
  }

  private static void assertOneErrorLine(CliResult r, String prefix) {
    assertThat(r.stderr().lines().filter(l -> l.startsWith(prefix)).count())
        .as("%s", r)
        .isEqualTo(1);
    assertThat(r.stderr()).as("%s", r).doesNotContain("Exception");
  }
}
