package dev.clrscope.cli.commands.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clrscope.nettrace.NetTraceReader;
import dev.clrscope.nettrace.TraceEvent;
import dev.clrscope.nettrace.events.RuntimeEvents;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceConversionTest {
  private static final Path TRACE =
      Fixtures.pyroscope("dotnet-5.0-SampleProfiler-single-thread.nettrace");
  private static final Path FOLDED =
      Fixtures.pyroscope("dotnet-5.0-SampleProfiler-single-thread-managed-only.folded.txt");
  private static final ObjectMapper JSON = new ObjectMapper();

  private static String convert(Path trace, ConversionFormat format) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    TraceConversion.convert(trace, out, format);
    return out.toString(StandardCharsets.UTF_8);
  }

  /** Stack to share of all samples. */
  private static Map<String, Double> shares(Map<String, Double> values) {
    double total = values.values().stream().mapToDouble(Double::doubleValue).sum();
    Map<String, Double> s = new HashMap<>();
    values.forEach((k, v) -> s.put(k, v / total));
    return s;
  }

  private static Map<String, Double> parseFolded(String text, boolean pyroscopeNames) {
    Map<String, Double> m = new HashMap<>();
    for (String line : text.split("\n", -1)) {
      if (line.isBlank()) {
        continue;
      }
      int space = line.lastIndexOf(' ');
      String stack = line.substring(0, space);
      if (pyroscopeNames) {
        // mvc-hello-world!Example.Program.Work(int32) -> Example.Program.Work
        stack = stack.replaceAll("[^;!]*!", "").replaceAll("\\([^)]*\\)", "");
      }
      m.merge(stack, Double.parseDouble(line.substring(space + 1)), Double::sum);
    }
    return m;
  }

  @Test
  void foldedStacksMatchPyroscopesProportions() throws IOException {
    Map<String, Double> ours = parseFolded(convert(TRACE, ConversionFormat.folded), false);
    Map<String, Double> theirs =
        parseFolded(Files.readString(FOLDED, StandardCharsets.UTF_8), true);
    assertThat(ours.keySet()).isEqualTo(theirs.keySet());
    assertThat(ours.keySet())
        .contains(
            "Example.Program.Main;Example.Program.Fast;Example.Program.Work",
            "Example.Program.Main;Example.Program.Slow;Example.Program.Work");
    Map<String, Double> a = shares(ours);
    Map<String, Double> b = shares(theirs);
    for (String stack : b.keySet()) {
      assertThat(a.get(stack)).as(stack).isCloseTo(b.get(stack), within(0.01));
    }
    // Every one of the fixture's 5564 samples is counted once.
    assertThat(ours.values().stream().mapToDouble(Double::doubleValue).sum()).isEqualTo(5564.0);
  }

  @Test
  void speedscopeIsValidWithTheExpectedFrames() throws IOException {
    JsonNode root = JSON.readTree(convert(TRACE, ConversionFormat.speedscope));
    assertThat(root.path("$schema").asText()).isEqualTo(SpeedscopeWriter.SCHEMA);
    Set<String> frames = new HashSet<>();
    root.path("shared").path("frames").forEach(f -> frames.add(f.path("name").asText()));
    assertThat(frames)
        .contains(
            "Example.Program.Main",
            "Example.Program.Fast",
            "Example.Program.Slow",
            "Example.Program.Work");
    JsonNode profiles = root.path("profiles");
    assertThat(profiles.size()).isGreaterThanOrEqualTo(1);
    long samples = 0;
    for (JsonNode p : profiles) {
      assertThat(p.path("type").asText()).isEqualTo("sampled");
      assertThat(p.path("unit").asText()).isEqualTo("milliseconds");
      assertThat(p.path("samples").size()).isEqualTo(p.path("weights").size());
      assertThat(p.path("endValue").asDouble()).isGreaterThan(p.path("startValue").asDouble());
      for (JsonNode s : p.path("samples")) {
        assertThat(s.size()).isPositive();
        s.forEach(i -> assertThat(i.asInt()).isBetween(0, frames.size() - 1));
        // Root first: every stack starts at Main.
        String rootFrame =
            root.path("shared").path("frames").get(s.get(0).asInt()).path("name").asText();
        assertThat(rootFrame).isEqualTo("Example.Program.Main");
      }
      samples += p.path("samples").size();
    }
    assertThat(samples).isEqualTo(5564);
  }

  @Test
  void chromiumIsLaidOutAsDotnetTraceWritesItWithBalancedSampleEvents() throws IOException {
    JsonNode root = JSON.readTree(convert(TRACE, ConversionFormat.chromium));
    assertThat(root.path("displayTimeUnit").asText()).isEqualTo("ms");
    assertThat(root.path("otherData").path("name").asText())
        .isEqualTo(TRACE.getFileName().toString());
    JsonNode events = root.path("traceEvents");
    assertThat(events.isArray()).isTrue();
    Map<String, Integer> depth = new HashMap<>();
    for (JsonNode e : events) {
      String ph = e.path("ph").asText();
      assertThat(ph).as("only the samples' frames, as dotnet-trace").isIn("B", "E");
      assertThat(e.path("cat").asText()).isEqualTo("sampleEvent");
      String tid = e.path("tid").asText();
      depth.merge(tid, ph.equals("B") ? 1 : -1, Integer::sum);
      assertThat(depth.get(tid)).isNotNegative();
      assertThat(e.path("ts").asDouble()).isNotNegative();
    }
    assertThat(depth.values()).allMatch(d -> d == 0);
    assertThat(events.findValuesAsText("name")).contains("Example.Program.Work");
  }

  @Test
  void chromiumWithAllEventsAddsEveryOtherEventAsAnInstant() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    TraceConversion.convert(TRACE, out, ConversionFormat.chromium, true, null);
    JsonNode events = JSON.readTree(out.toByteArray()).path("traceEvents");
    long instants = 0;
    long samplesEvents = 0;
    for (JsonNode e : events) {
      if (e.path("ph").asText().equals("i")) {
        instants++;
      } else {
        samplesEvents++;
      }
    }
    long others = 0;
    try (NetTraceReader r = NetTraceReader.open(TRACE, true)) {
      TraceEvent e;
      while ((e = r.next()) != null) {
        if (!RuntimeEvents.SAMPLE_PROFILER_PROVIDER.equals(e.providerName())) {
          others++;
        }
      }
    }
    assertThat(instants).isEqualTo(others).isPositive();
    assertThat(samplesEvents)
        .isEqualTo(
            JSON.readTree(convert(TRACE, ConversionFormat.chromium)).path("traceEvents").size());
  }

  @Test
  void truncatedInputStillGivesValidOutput(@TempDir Path dir) throws IOException {
    byte[] all = Files.readAllBytes(TRACE);
    Path cut = dir.resolve("cut.nettrace");
    // Mid-trace: before the rundown, so frames are hex addresses; and a few bytes short of the end.
    for (int length : new int[] {all.length / 2, all.length - 10}) {
      Files.write(cut, java.util.Arrays.copyOf(all, length));
      JsonNode speedscope = JSON.readTree(convert(cut, ConversionFormat.speedscope));
      assertThat(speedscope.path("profiles").size()).isPositive();
      assertThat(speedscope.path("shared").path("frames").size()).isPositive();
      JsonNode chromium = JSON.readTree(convert(cut, ConversionFormat.chromium));
      assertThat(chromium.path("traceEvents").size()).isPositive();
      String folded = convert(cut, ConversionFormat.folded);
      assertThat(folded).isNotBlank().matches("(?s)(\\S[^\\n]* \\d+\\n)+");
    }
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Files.write(cut, java.util.Arrays.copyOf(all, all.length / 2));
    TraceConversion.Result r = TraceConversion.convert(cut, out, ConversionFormat.folded);
    assertThat(r.truncatedAt()).contains("offset");
    assertThat(r.methods()).isZero();
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("0x");
  }
}
