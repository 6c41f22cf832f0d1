package dev.clrscope.cli.commands.trace;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clrscope.cli.render.OutputFormat;
import dev.clrscope.cli.render.Records;
import dev.clrscope.cli.render.Renderer;
import dev.clrscope.nettrace.NetTraceReader;
import dev.clrscope.nettrace.TraceEvent;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The JSON Lines written straight to bytes are the lines the record schema writes, event for event,
 * on traces the runtime and other tools wrote.
 */
class EventJsonLinesTest {
  private static final List<Path> TRACES =
      List.of(
          Path.of("../nettrace/src/test/resources/golden/golden.nettrace"),
          Path.of("../nettrace/src/test/resources/golden/runtime-all.nettrace"),
          Path.of("../heapwalk/src/test/resources/heap-walk.nettrace"),
          Path.of(
              "../../shared/fixtures/perfview/eventpipe-dotnetcore5.0-win-x64-arraytypes.nettrace"),
          Path.of(
              "../../shared/fixtures/perfview/eventpipe-dotnetcore6.0-win-x64-executioncheckpoints.nettrace"),
          Path.of(
              "../../shared/fixtures/pyroscope/dotnet-5.0-SampleProfiler-single-thread.nettrace"));

  @Test
  void everyEventOfEveryTraceIsTheSameLineAsTheSchemaWrites() throws Exception {
    long compared = 0;
    for (Path trace : TRACES) {
      EventJsonLines lines = new EventJsonLines();
      try (NetTraceReader r = NetTraceReader.open(trace)) {
        TraceEvent e;
        while ((e = r.next()) != null) {
          String expected =
              EventsCommand.SCHEMA.appendJson(new StringBuilder(), EventJson.of(e)).toString();
          assertThat(lines.text(e)).as("%s, event %d", trace, compared).isEqualTo(expected);
          compared++;
        }
      }
    }
    assertThat(compared).isGreaterThan(10_000);
  }

  @Test
  void writtenLinesEndWithANewlineAndAreUtf8() throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    EventJsonLines lines = new EventJsonLines();
    String first;
    try (NetTraceReader r = NetTraceReader.open(TRACES.get(0))) {
      TraceEvent e = r.next();
      first = lines.text(e);
      // As trace events draws it: the JSON Lines renderer, the line written as bytes.
      Renderer.of(
              OutputFormat.jsonl, new PrintStream(out, true, StandardCharsets.UTF_8), System.err, 0)
          .draw(
              Records.of(
                  EventsCommand.stream(),
                  sink -> {
                    sink.write(new EventsCommand.Decoded(e));
                    return null;
                  }));
    }
    assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(first + "\n");
  }
}
