package dev.clrscope.cli.commands.trace;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clrscope.cli.CliRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the reading commands say about how a trace file ended. */
class TraceFileInputTest {
  private static final Path TRACE =
      Fixtures.pyroscope("dotnet-5.0-SampleProfiler-single-thread.nettrace");

  @Test
  void bytesAfterTheTracesEndAreNamedByEveryReadingCommand(@TempDir Path dir) throws Exception {
    byte[] all = Files.readAllBytes(TRACE);
    Path joined = dir.resolve("joined.nettrace");
    byte[] bytes = Arrays.copyOf(all, all.length + 1234);
    Files.write(joined, bytes);
    String warning =
        "1,234 bytes after the trace's end marker were ignored: they are not part of the trace"
            + " (was something appended to the file?)";

    CliRun stats = CliRun.of("trace", "stats", joined.toString(), "--format", "json");
    assertThat(stats.exit()).isZero();
    JsonNode summary = new ObjectMapper().readTree(stats.out());
    assertThat(summary.get("trailingBytes").asLong()).isEqualTo(1234);
    assertThat(summary.get("truncated").isNull()).isTrue();
    assertThat(stats.err()).isEqualTo("clrscope trace stats: " + warning + "\n");

    CliRun events = CliRun.of("trace", "events", joined.toString(), "--event", "nothing-matches");
    assertThat(events.err()).contains("clrscope trace events: " + warning);

    CliRun convert =
        CliRun.of("trace", "convert", joined.toString(), "--format", "folded", "-o", "-");
    assertThat(convert.exit()).isZero();
    assertThat(convert.err()).contains("clrscope trace convert: " + warning);

    CliRun whole = CliRun.of("trace", "stats", TRACE.toString());
    assertThat(whole.err()).isEmpty();
  }
}
