package dev.clrscope.e2e;

import static dev.clrscope.e2e.AnalyzeCli.address;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What {@code clrscope analyze} says of input it cannot read: a file that is not an ELF core, a
 * directory, a missing file, a core cut short, a core of another architecture, a core of a process
 * that is not .NET, a core whose heap was overwritten, an address that is no object, and commands
 * used wrongly. Each is one line on stderr with what to do, exit 1 (2 for usage), never a stack
 * trace or a crash.
 */
class AnalyzeBadInputTest {
  private static final Duration TIMEOUT = AnalyzeCli.TIMEOUT;

  @TempDir static Path dir;
  private static Path core;

  @BeforeAll
  static void dump() {
    try (TargetProcess app = TargetProcess.start(DotnetApps.TARGET_APP)) {
      app.send("facts 100");
      core = dir.resolve("heap.core");
      CliResult r =
          Clrscope.run(
              Duration.ofMinutes(3),
              "dump",
              "-p",
              Long.toString(app.pid()),
              "--type",
              "heap",
              "-o",
              core.toString());
      assertThat(r.exitCode()).as("%s", r).isZero();
    }
  }

  @AfterAll
  static void done() {}

  private static CliResult analyze(String... args) {
    List<String> all = new ArrayList<>(List.of("analyze"));
    all.addAll(List.of(args));
    all.addAll(List.of("--symbol-server", "none"));
    return Clrscope.run(TIMEOUT, all.toArray(String[]::new));
  }

  private static void assertOneLine(CliResult r, int exit, String line) {
    assertThat(r.exitCode()).as("%s", r).isEqualTo(exit);
    assertThat(r.stdout()).as("%s", r).isEmpty();
    assertThat(r.stderr().lines().toList()).as("%s", r).containsExactly(line);
  }

  @Test
  void filesThatAreNoCoreAreNamedAsSuch() throws Exception {
    Path text = Files.writeString(dir.resolve("notes.txt"), "not a core\n");
    assertOneLine(
        analyze(text.toString(), "-c", "threads"),
        1,
        "clrscope analyze: "
            + text
            + " is not an ELF file: give a core file (clrscope dump writes one)");
    assertOneLine(
        analyze(dir.toString(), "-c", "threads"),
        1,
        "clrscope analyze: " + dir + " is not a regular file: give a core file");
    Path missing = dir.resolve("missing.core");
    assertOneLine(
        analyze(missing.toString(), "-c", "threads"),
        1,
        "clrscope analyze: " + missing + " does not exist: give a core file");
  }

  @Test
  void aCoreCutShortSaysWhereItEnds() throws Exception {
    Path cut = dir.resolve("cut.core");
    long half = Files.size(core) / 2;
    try (FileChannel in = FileChannel.open(core);
        FileChannel out =
            FileChannel.open(cut, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
      in.transferTo(0, half, out);
    }
    CliResult r = analyze(cut.toString(), "-c", "dumpheap -stat");
    assertThat(r.exitCode()).as("%s", r).isEqualTo(1);
    assertThat(r.stderr().lines().toList()).as("%s", r).hasSize(1);
    assertThat(r.stderr())
        .startsWith("clrscope analyze: " + cut + " is cut short: its memory segments reach byte ")
        .contains("of a " + half + "-byte file")
        .contains("take the dump again");
  }

  @Test
  void aCoreOfAnotherArchitectureSaysWhereToReadIt() throws Exception {
    Path arm = dir.resolve("arm64.core");
    byte[] head = new byte[64 << 10];
    try (FileChannel in = FileChannel.open(core)) {
      in.read(ByteBuffer.wrap(head));
    }
    head[18] = (byte) 0xb7; // e_machine: EM_AARCH64
    head[19] = 0;
    Files.write(arm, head);
    assertOneLine(
        analyze(arm.toString(), "-c", "threads"),
        1,
        "clrscope analyze: "
            + arm
            + " is a core of a ARM64 process; clrscope reads x86-64 cores only: analyze it on a"
            + " machine of that architecture with dotnet-dump");
  }

  @Test
  void aCoreOfAProcessThatIsNotDotnet() throws Exception {
    Process sleeper = new ProcessBuilder("sleep", "600").start();
    try {
      Path prefix = dir.resolve("gcore");
      Process gdb =
          new ProcessBuilder("gcore", "-o", prefix.toString(), Long.toString(sleeper.pid()))
              .redirectErrorStream(true)
              .start();
      gdb.getInputStream().readAllBytes();
      assertThat(gdb.waitFor(300, TimeUnit.SECONDS)).isTrue();
      Path sleepCore = Path.of(prefix + "." + sleeper.pid());
      assertOneLine(
          analyze(sleepCore.toString(), "-c", "threads"),
          1,
          "clrscope analyze: core "
              + sleepCore
              + " has no .NET runtime: libcoreclr.so is not mapped (not a .NET process, or a"
              + " NativeAOT one, which has no DAC)");
    } finally {
      sleeper.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void addressesThatAreNoObjectAndCommandsUsedWrongly() {
    String c = core.toString();
    assertOneLine(
        analyze(c, "-c", "dumpobj 0x1000"),
        1,
        "clrscope analyze: dumpobj: 0x1000 is not an object: it is not in the GC heap");
    assertOneLine(
        analyze(c, "-c", "dumparray 1004"),
        1,
        "clrscope analyze: dumparray: 0x1004 is not an object address (objects are 8-byte"
            + " aligned)");
    assertOneLine(
        analyze(c, "-c", "dumpobj zz"),
        2,
        "clrscope analyze: dumpobj: not an address: zz (hexadecimal, with or without 0x) (usage:"
            + " dumpobj ADDR)");
    assertOneLine(
        analyze(c, "-c", "dumpheap -foo"),
        2,
        "clrscope analyze: dumpheap: unknown option -foo (usage: dumpheap [-stat] [-short]"
            + " [-strings] [-live|-dead] [-type SUBSTRING] [-mt MT] [-min N] [-max N])");
    assertOneLine(
        analyze(c, "-c", "nosuch"),
        2,
        "clrscope analyze: no command nosuch (help lists the commands; dotnet-dump's names work)");
    assertOneLine(
        analyze(c, "-c", "dumpgen 7"),
        2,
        "clrscope analyze: dumpgen: not a generation: 7 (0, 1, 2, loh or poh) (usage: dumpgen"
            + " 0|1|2|loh|poh [-stat] [-short] [-type SUBSTRING] [-mt MT])");
    String item =
        AnalyzeCli.one(AnalyzeCli.core(core), "dumpheap -short -type TargetApp.ThreadFact")
            .get("objects")
            .get(0)
            .get("address")
            .asText();
    assertOneLine(
        analyze(c, "-c", "dcq " + item),
        1,
        "clrscope analyze: dumpconcurrentqueue: "
            + item
            + " is not a ConcurrentQueue: it is a TargetApp.ThreadFact");
    assertOneLine(
        analyze(c, "-c", "dcd " + item),
        1,
        "clrscope analyze: dumpconcurrentdictionary: "
            + item
            + " is not a ConcurrentDictionary: it is a TargetApp.ThreadFact");
    assertOneLine(
        analyze(c, "-c", "tks " + item),
        1,
        "clrscope analyze: taskstate: "
            + item
            + " is not a Task: it is a TargetApp.ThreadFact (taskstate -v VALUE decodes a state value)");
    // The first failing command ends the run; those before it printed their result.
    CliResult partial =
        analyze(c, "-c", "threads", "-c", "dumpmt 0x10", "-c", "threads", "--format", "json");
    assertThat(partial.exitCode()).as("%s", partial).isEqualTo(1);
    assertThat(partial.stdoutLines()).hasSize(1);
    assertThat(partial.stderr().lines().toList())
        .containsExactly("clrscope analyze: dumpmt: 0x10 is not a method table");

    CliResult none = Clrscope.run(TIMEOUT, "analyze", "-c", "threads");
    assertThat(none.exitCode()).as("%s", none).isEqualTo(2);
    assertThat(none.stderr()).startsWith("clrscope analyze: give a core file, -p PID or -n NAME\n");
    CliResult both = Clrscope.run(TIMEOUT, "analyze", c, "-p", "1");
    assertThat(both.exitCode()).as("%s", both).isEqualTo(2);
    assertThat(both.stderr())
        .startsWith("clrscope analyze: give one of a core file, -p PID and -n NAME\n");
    CliResult server = Clrscope.run(TIMEOUT, "analyze", c, "--symbol-server", "ftp://x");
    assertThat(server.exitCode()).as("%s", server).isEqualTo(2);
    assertThat(server.stderr())
        .startsWith(
            "clrscope analyze: --symbol-server takes an http(s) URL or none, not ftp://x\n");
  }

  /**
   * A core whose heap memory was overwritten (seeded garbage over the objects): every run ends in a
   * result (the walk stops where a segment makes no sense and says so) or one line, never a stack
   * trace or a crash.
   */
  @Test
  void aCoreWithItsHeapOverwrittenEndsCleanly() throws Exception {
    JsonNode eeheap = AnalyzeCli.one(AnalyzeCli.core(core), "eeheap -gc");
    List<long[]> ranges = new ArrayList<>();
    for (JsonNode s : eeheap.get("segments")) {
      long begin = address(s.get("begin"));
      long end = address(s.get("allocated"));
      if (end - begin > 4096) {
        ranges.add(new long[] {begin, end});
      }
    }
    assertThat(ranges).isNotEmpty();
    for (int seed = 1; seed <= 4; seed++) {
      Path damaged = dir.resolve("damaged-" + seed + ".core");
      Files.copy(core, damaged);
      Random random = new Random(seed);
      int overwritten = overwrite(damaged, ranges, random);
      assertThat(overwritten).as("bytes overwritten in the heap").isPositive();
      CliResult r =
          analyze(
              damaged.toString(),
              "-c",
              "dumpheap -stat",
              "-c",
              "gcroot 0x" + Long.toHexString(ranges.get(0)[0]),
              "--format",
              "json");
      assertThat(r.exitCode()).as("%s", r).isIn(0, 1);
      assertThat(r.stderr())
          .as("%s", r)
          .doesNotContain("Exception")
          .doesNotContain("internal error");
      if (r.exitCode() == 1) {
        assertThat(r.stderr().lines().filter(l -> l.startsWith("clrscope analyze: ")).count())
            .as("%s", r)
            .isEqualTo(1);
      }
      // The exact graph of the same core: its report, and analyze's commands over it.
      endsCleanly(
          Clrscope.run(
              AnalyzeCli.TIMEOUT, "dump-heap", "report", damaged.toString(), "--format", "json"),
          "clrscope dump-heap report: ");
      endsCleanly(
          analyze(
              damaged.toString(),
              "-c",
              "dominators",
              "-c",
              "duplicates",
              "-c",
              "fill",
              "--format",
              "json"),
          "clrscope analyze: ");
      Files.delete(damaged);
    }
  }

  /** A result, or one line that starts with {@code prefix}: never a stack trace. */
  private static void endsCleanly(CliResult r, String prefix) {
    assertThat(r.exitCode()).as("%s", r).isIn(0, 1);
    assertThat(r.stderr()).as("%s", r).doesNotContain("Exception").doesNotContain("internal error");
    if (r.exitCode() == 1) {
      assertThat(r.stderr().lines().filter(l -> l.startsWith(prefix)).count())
          .as("%s", r)
          .isEqualTo(1);
    }
  }

  /** Writes random bytes over 64 KiB runs of the heap's ranges in the core's file. */
  private static int overwrite(Path file, List<long[]> ranges, Random random) throws Exception {
    List<long[]> loads = ElfLoads.of(file);
    int written = 0;
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      for (int i = 0; i < 8; i++) {
        long[] range = ranges.get(random.nextInt(ranges.size()));
        long at = range[0] + (long) (random.nextDouble() * (range[1] - range[0]));
        long offset = ElfLoads.fileOffset(loads, at);
        if (offset < 0) {
          continue;
        }
        byte[] junk = new byte[(int) Math.min(64 << 10, range[1] - at)];
        random.nextBytes(junk);
        written += ch.write(ByteBuffer.wrap(junk), offset);
      }
    }
    return written;
  }
}
