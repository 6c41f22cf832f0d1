package dev.clrscope.cli.input;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.clrscope.cli.CliRun;
import dev.clrscope.cli.SharedFixtures;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Inputs that are not what they seem: a FIFO where a trace or a library is expected is never opened
 * (it would block for ever), and every unreadable trace {@code alloc} is given ends in one line and
 * exit 1, as the other readers do.
 */
class InputFilesTest {
  private static final Duration LIMIT = Duration.ofSeconds(60);

  @TempDir Path dir;

  private Path mkfifo(String name) throws Exception {
    Path p = dir.resolve(name);
    assertThat(new ProcessBuilder("mkfifo", p.toString()).start().waitFor()).isZero();
    return p;
  }

  /**
   * TargetApp's thread samples for a second ({@code trace collect --profile
   * dotnet-sampled-thread-time --rundown false}: no method names, so every frame is looked up in
   * the maps), with a sidecar mapping every address to a FIFO named like a library.
   */
  private Path traceWithTrapSidecar() throws Exception {
    Path trace = dir.resolve("t.nettrace");
    try (var in =
        InputFilesTest.class.getResourceAsStream(
            "/dev/clrscope/cli/input/net10-samples-no-rundown.nettrace")) {
      Files.copy(in, trace);
    }
    Path fifo = mkfifo("libtrap.so");
    Files.writeString(
        dir.resolve("t.nettrace.maps"), "0-7fffffffffff r-xp 00000000 08:01 42 " + fifo + "\n");
    return trace;
  }

  @Test
  void aSidecarNamingAFifoNeitherHangsTheReportNorTheConversion() throws Exception {
    Path trace = traceWithTrapSidecar();
    String warning =
        "skipped the symbols of "
            + dir.resolve("libtrap.so")
            + ": it is a FIFO, not a regular file; its frames are named libtrap.so!0x...";
    CliRun report =
        assertTimeoutPreemptively(
            LIMIT, () -> CliRun.of("trace", "report", trace.toString(), "topN"));
    assertThat(report.exit()).as("%s", report).isZero();
    assertThat(report.err()).contains("clrscope trace report topN: " + warning);
    Path folded = dir.resolve("t.folded");
    CliRun convert =
        assertTimeoutPreemptively(
            LIMIT,
            () ->
                CliRun.of(
                    "trace",
                    "convert",
                    trace.toString(),
                    "--format",
                    "folded",
                    "-o",
                    folded.toString()));
    assertThat(convert.exit()).as("%s", convert).isZero();
    assertThat(convert.err()).contains("clrscope trace convert: " + warning);
    assertThat(Files.readString(folded)).contains("libtrap.so!0x");
  }

  @Test
  void allocOfAFifoOrAnythingUnreadableIsOneLine() throws Exception {
    Path fifo = mkfifo("trap.nettrace");
    byte[] golden =
        Files.readAllBytes(
            SharedFixtures.of("pyroscope", "dotnet-5.0-SampleProfiler-single-thread.nettrace"));
    Map<String, byte[]> files = new LinkedHashMap<>();
    files.put("empty.nettrace", new byte[0]);
    files.put(
        "garbage.nettrace", "not a trace at all, just words".getBytes(StandardCharsets.UTF_8));
    files.put("magic.nettrace", "Nettrace".getBytes(StandardCharsets.US_ASCII));
    byte[] header = Arrays.copyOf(golden, 64);
    header[20] ^= 0x5a;
    files.put("header.nettrace", header);
    Map<String, String> expected = new LinkedHashMap<>();
    expected.put(
        fifo.toString(), fifo + " is a FIFO, not a regular file: give a saved .nettrace file");
    expected.put(
        "/dev/null",
        "/dev/null is a character device, not a regular file: give a saved .nettrace file");
    expected.put(
        dir.toString(), dir + " is a directory, not a regular file: give a saved .nettrace file");
    for (Map.Entry<String, byte[]> f : files.entrySet()) {
      Path p = dir.resolve(f.getKey());
      Files.write(p, f.getValue());
      expected.put(p.toString(), p + " is not a trace clrscope can read: ");
    }
    for (Map.Entry<String, String> e : expected.entrySet()) {
      CliRun r = assertTimeoutPreemptively(LIMIT, () -> CliRun.of("alloc", e.getKey()));
      assertThat(r.exit()).as("%s: %s", e.getKey(), r).isEqualTo(1);
      assertThat(r.err().lines()).as(e.getKey()).hasSize(1);
      assertThat(r.err()).as(e.getKey()).startsWith("clrscope alloc: " + e.getValue());
      assertThat(r.err()).doesNotContain("Exception").doesNotContain("could not start");
    }
  }
}
