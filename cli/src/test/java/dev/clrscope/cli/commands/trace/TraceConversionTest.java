package dev.clrscope.cli.commands.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
  void chromiumIsABalancedEventArray() throws IOException {
    JsonNode root = JSON.readTree(convert(TRACE, ConversionFormat.chromium));
    assertThat(root.isArray()).isTrue();
    Map<String, Integer> depth = new HashMap<>();
    for (JsonNode e : root) {
      String ph = e.path("ph").asText();
      String tid = e.path("tid").asText();
      if (ph.equals("B")) {
        depth.merge(tid, 1, Integer::sum);
      } else if (ph.equals("E")) {
        depth.merge(tid, -1, Integer::sum);
        assertThat(depth.get(tid)).isNotNegative();
      }
      assertThat(e.path("ts").asDouble()).isNotNegative();
    }
    assertThat(depth.values()).allMatch(d -> d == 0);
    assertThat(root.findValuesAsText("name")).contains("Example.Program.Work");
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
      assertThat(chromium.size()).isPositive();
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
