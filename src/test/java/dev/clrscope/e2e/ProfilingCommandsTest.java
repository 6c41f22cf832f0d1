package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.clrscope.symbols.FrameResolver;
import dev.clrscope.symbols.ManagedCodeMap;
import dev.clrscope.symbols.ProcessMaps;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import net.fornwall.jelf.ElfFile;
import net.fornwall.jelf.ElfSegment;
import net.fornwall.jelf.ElfSymbol;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code trace report topN}, {@code alloc} and native frame names against live TargetApp processes:
 * the method that burnt the CPU, the type that was allocated and where, and a symbol of the
 * runtime's own library must come out by name.
 */
class ProfilingCommandsTest {
  private static final Duration TIMEOUT = Duration.ofMinutes(2);
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  private static void awaitStderr(RunningCli cli, String text) {
    await()
        .atMost(TIMEOUT)
        .pollInterval(Duration.ofMillis(50))
        .until(
            () -> {
              if (!cli.process().isAlive()) {
                throw new AssertionError("clrscope ended before '" + text + "': " + cli.stderr());
              }
              return cli.stderr().contains(text);
            });
  }

  private static JsonNode runJson(String... args) throws IOException {
    CliResult r = Clrscope.run(TIMEOUT, args);
    assertThat(r.exitCode()).as("%s", r).isZero();
    return JSON.readTree(r.stdout());
  }

  /** Records a trace of {@code target} while it runs {@code command}; returns its answer. */
  private static JsonNode collect(
      TargetProcess target, Path file, String command, String... options) {
    return TraceRecorder.collect(target, file, command, TIMEOUT, options);
  }

  @Test
  void topNNamesTheMethodThatBurntTheCpuAndSpeedscopeNamesFramesTheSameWay() throws Exception {
    Path file = dir.resolve("spin.nettrace");
    JsonNode spin;
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      spin = collect(target, file, "spin 1500", "--profile", "dotnet-sampled-thread-time");
    }
    assertThat(spin.path("event").asText()).isEqualTo("spin");
    long tid = spin.path("tid").asLong();

    // The sidecar: the target's mappings, the runtime's own library among them.
    Path maps = ProcessMaps.sidecarOf(file);
    assertThat(Files.readString(maps, StandardCharsets.UTF_8)).contains("/libcoreclr.so");

    JsonNode thread =
        runJson(
            "trace",
            "report",
            file.toString(),
            "topN",
            "-N",
            "3",
            "--thread",
            Long.toString(tid),
            "--format",
            "json");
    long samples = thread.path("samples").asLong();
    assertThat(thread.path("threads").asInt()).isEqualTo(1);
    // 1.5 s at about one sample a millisecond, on a shared machine: well over a hundred.
    assertThat(samples).isGreaterThan(100);
    // BurnCpu is the top exclusive frame, unless the runtime's GC poll, called from its loop, is:
    // the sampler stops threads at their next GC poll, and on a loaded machine (the whole suite
    // on 2 cores) a thread can wait there for many samples. Either way BurnCpu holds the samples.
    JsonNode methods = thread.path("methods");
    JsonNode first = methods.get(0);
    JsonNode burn = first;
    long pollGc = 0;
    if (!first.path("method").asText().equals("TargetApp.Profiled.BurnCpu")) {
      assertThat(first.path("method").asText()).startsWith("System.Threading.Thread.<PollGC>");
      pollGc = first.path("exclusive").asLong();
      burn = methods.get(1);
      assertThat(burn.path("method").asText()).isEqualTo("TargetApp.Profiled.BurnCpu");
    }
    assertThat((burn.path("exclusive").asLong() + pollGc) * 2).isGreaterThan(samples);
    // Burning CPU: those samples are of a thread running managed code.
    assertThat(burn.path("exclusiveCpu").asLong() * 10)
        .isGreaterThanOrEqualTo(burn.path("exclusive").asLong() * 9);
    assertThat(burn.path("inclusive").asLong() * 100).isGreaterThanOrEqualTo(samples * 95);

    // Every thread, every method: the same names as speedscope's frames.
    JsonNode all =
        runJson("trace", "report", file.toString(), "topN", "-N", "100000", "--format", "json");
    Set<String> reported = new HashSet<>();
    all.path("methods").forEach(m -> reported.add(m.path("method").asText()));
    assertThat(reported).contains("TargetApp.Profiled.BurnCpu", "TargetApp.Program.Main");
    Path speedscope = dir.resolve("spin.speedscope.json");
    CliResult convert =
        Clrscope.run(TIMEOUT, "trace", "convert", file.toString(), "-o", speedscope.toString());
    assertThat(convert.exitCode()).as("%s", convert).isZero();
    Set<String> frames = new HashSet<>();
    JSON.readTree(speedscope.toFile())
        .path("shared")
        .path("frames")
        .forEach(f -> frames.add(f.path("name").asText()));
    assertThat(frames).isEqualTo(reported);
    assertThat(frames).noneMatch(String::isBlank);

    // Tables and CSV carry the same top method.
    CliResult csv =
        Clrscope.run(
            TIMEOUT,
            "trace",
            "report",
            file.toString(),
            "topN",
            "--thread",
            Long.toString(tid),
            "--format",
            "csv");
    assertThat(csv.stdoutLines().get(0))
        .isEqualTo(
            "rank,exclusive,exclusivePercent,exclusiveCpu,inclusive,inclusivePercent,inclusiveCpu,"
                + "method,file,line");
    assertThat(csv.stdoutLines().get(1))
        .endsWith(
            ","
                + first.path("method").asText()
                + ","
                + first.path("file").asText()
                + ","
                + first.path("line").asText());
  }

  @Test
  void allocListsTheAllocatedTypeFirstWithTheMethodThatAllocatedIt() throws Exception {
    Path flame = dir.resolve("alloc.folded");
    JsonNode answer;
    CliResult result;
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP);
        RunningCli cli =
            Clrscope.start(
                Map.of(),
                dir,
                "alloc",
                "-p",
                Long.toString(target.pid()),
                "--format",
                "json",
                "--flame",
                flame.toString())) {
      awaitStderr(cli, "Watching the allocations");
      answer = target.send("allocate 200000 20", TIMEOUT);
      cli.interrupt();
      result = cli.await(TIMEOUT);
    }
    assertThat(result.exitCode()).as("%s", result).isZero();
    // 200,000 widgets of ~150 bytes: ~30 MB, ~290 ticks of ~100 KB.
    assertThat(answer.path("allocatedBytes").asLong()).isGreaterThan(30_000_000L);
    JsonNode doc = JSON.readTree(result.stdout());
    JsonNode top = doc.path("types").get(0);
    assertThat(top.path("type").asText()).isEqualTo("TargetApp.ProfiledWidget");
    assertThat(top.path("heap").asText()).isEqualTo("small");
    assertThat(top.path("ticks").asLong()).isGreaterThan(200);
    // The ticks stand for what was allocated (30.8 MB by the app's own count), roughly.
    assertThat(top.path("estimatedBytes").asLong()).isBetween(25_000_000L, 40_000_000L);
    JsonNode stack = doc.path("stacks").get(0);
    assertThat(stack.path("topType").asText()).isEqualTo("TargetApp.ProfiledWidget");
    JsonNode allocating = stack.path("frames").get(0);
    assertThat(allocating.path("method").asText()).isEqualTo("TargetApp.Profiled.MakeWidgets");
    // The line of the allocation, read from the source.
    int widgetLine = SourceMarkers.line(DotnetApps.TARGET_APP, "Profiled.cs", "make-widget");
    assertThat(allocating.path("file").asText()).endsWith("/TargetApp/Profiled.cs");
    assertThat(allocating.path("line").asInt()).isEqualTo(widgetLine);
    // Large objects apart: the byte[100000] arrays, from their own method.
    JsonNode large = null;
    for (JsonNode s : doc.path("stacks")) {
      if (s.path("heap").asText().equals("large")) {
        large = s;
        break;
      }
    }
    assertThat(large).isNotNull();
    assertThat(large.path("topType").asText()).isEqualTo("System.Byte[]");
    assertThat(large.path("frames").get(0).path("method").asText())
        .isEqualTo("TargetApp.Profiled.MakeLargeArrays");
    assertThat(large.path("frames").get(0).path("line").asInt())
        .isEqualTo(SourceMarkers.line(DotnetApps.TARGET_APP, "Profiled.cs", "make-large-array"));
    // The flame graph: folded stacks ending in the type, weighted by ticks.
    String folded =
        Files.readAllLines(flame).stream()
            .filter(
                l ->
                    l.contains(
                        "TargetApp.Profiled.MakeWidgets (Profiled.cs:"
                            + widgetLine
                            + ");[TargetApp.ProfiledWidget] "))
            .findFirst()
            .orElseThrow();
    assertThat(Long.parseLong(folded.substring(folded.lastIndexOf(' ') + 1)))
        .isEqualTo(stack.path("ticks").asLong());
  }

  @Test
  void allocReadsASavedTraceToo() throws Exception {
    Path file = dir.resolve("alloc.nettrace");
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      collect(target, file, "allocate 100000 0", "--clrevents", "gc", "--clreventlevel", "verbose");
    }
    JsonNode doc = runJson("alloc", file.toString(), "--format", "json");
    assertThat(doc.path("types").get(0).path("type").asText())
        .isEqualTo("TargetApp.ProfiledWidget");
    assertThat(doc.path("stacks").get(0).path("frames").get(0).path("method").asText())
        .isEqualTo("TargetApp.Profiled.MakeWidgets");
    assertThat(doc.path("stacks").get(0).path("frames").get(0).path("line").asInt())
        .isEqualTo(SourceMarkers.line(DotnetApps.TARGET_APP, "Profiled.cs", "make-widget"));
  }

  /**
   * EventPipe's stacks hold managed frames only, so the native resolution is checked on the live
   * process itself: its /proc/PID/maps and the libcoreclr.so mapped there.
   */
  @Test
  void anAddressInTheLiveRuntimesLibcoreclrIsNamed() throws Exception {
    try (TargetProcess target = TargetProcess.start(DotnetApps.TARGET_APP)) {
      String text = Files.readString(Path.of("/proc/" + target.pid() + "/maps"));
      String lib = null;
      for (String line : text.split("\n")) {
        if (line.endsWith("/libcoreclr.so")) {
          lib = line.substring(line.indexOf('/'));
        }
      }
      assertThat(lib).isNotNull();
      ElfFile elf = ElfFile.from(Path.of(lib));
      ElfSymbol sym = elf.getELFSymbol("coreclr_initialize");
      long fileOffset = -1;
      for (int i = 0; i < elf.e_phnum; i++) {
        ElfSegment s = elf.getProgramHeader(i);
        if (s.p_type == ElfSegment.PT_LOAD
            && sym.st_value >= s.p_vaddr
            && sym.st_value < s.p_vaddr + s.p_filesz) {
          fileOffset = sym.st_value - s.p_vaddr + s.p_offset;
        }
      }
      assertThat(fileOffset).isNotNegative();
      long ip = -1;
      for (String line : text.split("\n")) {
        if (line.endsWith(lib)) {
          String[] f = line.split("\\s+");
          long start = Long.parseUnsignedLong(f[0].substring(0, f[0].indexOf('-')), 16);
          long end = Long.parseUnsignedLong(f[0].substring(f[0].indexOf('-') + 1), 16);
          long off = Long.parseUnsignedLong(f[2], 16);
          if (fileOffset >= off && fileOffset < off + (end - start)) {
            ip = start + (fileOffset - off) + 2;
          }
        }
      }
      assertThat(ip).isPositive();
      FrameResolver frames =
          new FrameResolver(new ManagedCodeMap(), null, ProcessMaps.ofProcess(target.pid()), false);
      assertThat(frames.name(ip)).isEqualTo("libcoreclr.so!coreclr_initialize");
      // Unmapped: the bare address.
      assertThat(frames.name(0x10L)).isEqualTo("0x10");
    }
  }
}
