package dev.clrscope.serve;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The findings serve lists with a firing, read from triage's JSON report. */
class DumpTriageTest {
  @Test
  void eachFindingsKindSeverityAndTitleInOrderEvidenceSkipped() throws IOException {
    String report =
        "{\"target\":\"core /d/x.dmp\",\"runtime\":\".NET 10.0.12\",\"findingCount\":2,"
            + "\"findings\":[{\"severity\":\"critical\",\"kind\":\"deadlock\",\"title\":\"Threads"
            + " 1 (a) and 2 (b) are deadlocked.\",\"evidence\":{\"threads\":[{\"osId\":1,"
            + "\"frames\":[{\"method\":\"M\",\"line\":3}]}],\"objects\":[],\"exceptions\":[],"
            + "\"facts\":{\"n\":1}},\"next\":[\"clrscope analyze /d/x.dmp -c syncblk\"]},"
            + "{\"severity\":\"info\",\"kind\":\"exception\",\"title\":\"T\",\"evidence\":{},"
            + "\"next\":[]}],\"checked\":[{\"area\":\"deadlocks\",\"result\":\"1 cycle\"}]}";
    assertThat(DumpTriage.findings(report.getBytes(StandardCharsets.UTF_8)))
        .containsExactly(
            new DumpTriage.Finding(
                "deadlock", "critical", "Threads 1 (a) and 2 (b) are deadlocked."),
            new DumpTriage.Finding("exception", "info", "T"));
  }

  @Test
  void aReportThatIsNoObjectIsAnError() {
    assertThatThrownBy(() -> DumpTriage.findings("[1]".getBytes(StandardCharsets.UTF_8)))
        .isInstanceOf(IOException.class)
        .hasMessage("triage's report is not a JSON object");
  }
}
