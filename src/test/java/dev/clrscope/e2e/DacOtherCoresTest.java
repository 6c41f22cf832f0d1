package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.clrscope.cli.dacprocess.DacProcess;
import dev.clrscope.dac.DacOptions;
import dev.clrscope.dac.DacSession;
import dev.clrscope.dac.TargetException;
import dev.clrscope.dac.TargetException.Problem;
import dev.clrscope.dac.source.ElfCore;
import dev.clrscope.dac.source.ElfImage;
import dev.clrscope.dac.source.MappedFile;
import dev.clrscope.dac.source.ThreadRegisters;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Cores other than the runtime's full and heap dumps: gdb's ({@code gcore}, which leaves clean
 * library pages to be read from the files), one of a process that is not .NET, and a real mini core
 * cut and corrupted thousands of times, each ending in a result or a one-line {@link
 * TargetException}, never another exception or a JVM crash.
 */
class DacOtherCoresTest {
  @TempDir Path dir;

  private DacOptions options() {
    return DacOptions.defaults().withSymbolServer(null).withCacheDir(dir.resolve("cache"));
  }

  private Path gcore(long pid) throws Exception {
    Path prefix = dir.resolve("gcore");
    Process gdb =
        new ProcessBuilder("gcore", "-o", prefix.toString(), Long.toString(pid))
            .redirectErrorStream(true)
            .start();
    String out =
        new String(gdb.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
    assertThat(gdb.waitFor(300, TimeUnit.SECONDS)).as("gcore ended").isTrue();
    Path core = Path.of(prefix + "." + pid);
    assertThat(core).as("gcore (from gdb) wrote a core: %s", out).isRegularFile();
    return core;
  }

  @Test
  void aCoreOfAProcessThatIsNotDotnetIsSaidToBeNone() throws Exception {
    Process sleeper = new ProcessBuilder("sleep", "600").start();
    try {
      Path core = gcore(sleeper.pid());
      assertThatThrownBy(() -> DacSession.openCore(core, options()))
          .isInstanceOfSatisfying(
              TargetException.class, e -> assertThat(e.problem()).isEqualTo(Problem.NOT_DOTNET))
          .hasMessage(
              "core "
                  + core
                  + " has no .NET runtime: libcoreclr.so is not mapped (not a .NET process, or a NativeAOT one, which has no DAC)");
    } finally {
      sleeper.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }

  @Test
  void aCoreWrittenByGdbHasEveryFact() throws Exception {
    try (TargetProcess app = DacLiveProcessTest.startUnwaited(List.of())) {
      JsonNode facts = app.send("facts 200");
      Path core = gcore(app.ready().pid());
      assertThat(app.send("ping").get("event").asText()).isEqualTo("pong");
      try (DacSession p = DacSession.openCore(core, options())) {
        DumpFactsCheck.assertFacts(p, facts, app.ready());
      }
    }
  }

  /**
   * A real mini core, changed in place a few bytes at a time: every cut of its headers and notes
   * and thousands of corruptions there, through the ELF reader (no DAC: the DAC reads damaged cores
   * in a DAC process of its own, below), each ending cleanly.
   */
  @Test
  void damagedMiniCoresEndInAResultOrOneLine() throws Exception {
    Path core = dir.resolve("mini.core");
    try (TargetProcess app = TargetProcess.start(DotnetApps.TARGET_APP)) {
      app.send("facts 10");
      DacCoreDumpTest.dump(app.pid(), "mini", core);
    }
    byte[] good = Files.readAllBytes(core);
    int headers = headersEnd(good);
    Map<String, Integer> outcomes = new TreeMap<>();
    Random random = new Random(20261126);
    Path cut = dir.resolve("cut.core");
    for (int at = 0; at < headers; at += 1 + at / 32) {
      Files.write(cut, java.util.Arrays.copyOf(good, at));
      outcomes.merge("cut " + readElf(cut), 1, Integer::sum);
    }
    try (FileChannel file =
        FileChannel.open(core, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      for (int i = 0; i < 3000; i++) {
        int[] where = mutate(file, good, random, headers);
        outcomes.merge("elf " + readElf(core), 1, Integer::sum);
        restore(file, good, where);
      }
    }
    assertThat(outcomes.keySet())
        .as("%s", outcomes)
        .allMatch(k -> !k.contains("OTHER"))
        .anyMatch(k -> k.startsWith("elf ok"));
  }

  /** How many flips {@link #flipsInTheRuntimesMemoryEndCleanlyInTheDacProcess} makes. */
  private static final int FLIPS = 300;

  /**
   * A real heap core, a few bytes of the runtime's memory changed at a time (libcoreclr.so's data,
   * the method tables of the types on the heap, objects' headers) and read through the real DAC in
   * a DAC process (as clrscope's front hands it over) with analyze's commands: each ends in a
   * result, one line (exit 1), or the DAC process's end, never an internal error or a run past its
   * deadline, and this JVM (the process a user talks to) never sees the DAC. Then the flips that
   * ended a DAC process, through the CLI (a DAC process that has read no core before: it may end or
   * not): a result or one line, exit 1, the whole documents of the commands before the one it ended
   * under and nothing of that one, no file left in the working directory.
   */
  @Test
  void flipsInTheRuntimesMemoryEndCleanlyInTheDacProcess() throws Exception {
    Path core = dir.resolve("heap.core");
    try (TargetProcess app = TargetProcess.start(DotnetApps.TARGET_APP)) {
      app.send("facts 100");
      DacCoreDumpTest.dump(app.pid(), "heap", core);
    }
    List<long[]> places = runtimePlaces(core);
    String[] commands = {
      "dumpheap -stat", "threads", "clrstack -all", "eeheap", "finalizequeue", "syncblk", "gcroot "
    };
    List<String> words = new ArrayList<>(List.of("analyze", core.toString()));
    for (String c : commands) {
      words.addAll(List.of("-c", c.equals("gcroot ") ? c + "0x" + Long.toHexString(anObject) : c));
    }
    words.addAll(List.of("--symbol-server", "none", "--format", "json"));
    Map<String, Integer> outcomes = new TreeMap<>();
    List<long[][]> ended = new ArrayList<>();
    long slowest = 0;
    long began = System.nanoTime();
    Random random = new Random(20261127);
    DacProcess dac = DacProcess.start();
    try (FileChannel file =
        FileChannel.open(core, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      for (int i = 0; i < FLIPS; i++) {
        long[][] flips = flip(file, places, random);
        long started = System.nanoTime();
        DacProcess.Result r = dac.run(words, java.time.Duration.ofSeconds(90));
        slowest = Math.max(slowest, System.nanoTime() - started);
        String outcome = outcome(r);
        outcomes.merge(outcome, 1, Integer::sum);
        if (r.exitCode() == null) {
          ended.add(flips);
          dac = DacProcess.start();
        }
        unflip(file, flips);
        assertThat(outcome).as("flip %d at %s: %s", i, describe(flips), r).doesNotContain("OTHER");
      }
    } finally {
      dac.close();
    }
    System.out.printf(
        "%d flips of the runtime's memory in %.1f s (slowest %.1f s): %s%n",
        FLIPS, (System.nanoTime() - began) / 1e9, slowest / 1e9, outcomes);
    assertThat(outcomes.keySet()).as("%s", outcomes).anyMatch(k -> k.equals("ok"));
    // The flips that ended a DAC process, through the CLI as a user runs it (in a DAC process of
    // its own, which has read no core before: it may end there too, or not).
    Path cwd = Files.createDirectories(dir.resolve("cwd"));
    int survived = 0;
    try (FileChannel file =
        FileChannel.open(core, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
      for (long[][] flips : ended.subList(0, Math.min(ended.size(), 5))) {
        reflip(file, flips);
        CliResult r = Clrscope.run(AnalyzeCli.TIMEOUT, Map.of(), cwd, words.toArray(String[]::new));
        unflip(file, flips);
        List<String> lines = r.stderr().lines().filter(l -> !l.startsWith("warning: ")).toList();
        assertThat(r.exitCode()).as("%s", r).isIn(0, 1);
        assertThat(lines).as("%s", r).hasSizeLessThanOrEqualTo(1);
        assertThat(r.stderr()).as("%s", r).doesNotContain("internal error", "\tat ");
        if (r.stderr().contains("the DAC process ended")) {
          assertThat(lines.get(0)).startsWith("clrscope analyze: the DAC process ended with");
          // The commands before the one it ended under printed their documents, whole; that
          // one printed nothing.
          List<JsonNode> docs = AnalyzeCli.documents(r);
          assertThat(docs).as("%s", r).hasSizeLessThan(commands.length);
          survived++;
        }
        try (var left = Files.list(cwd)) {
          assertThat(left.toList()).as("files left in the working directory").isEmpty();
        }
      }
    }
    System.out.printf(
        "of %d that ended a DAC process, %d did so again through the CLI%n",
        Math.min(ended.size(), 5), survived);
  }

  /** An object of the core's (a FactItem), for gcroot; set by {@link #runtimePlaces}. */
  private long anObject;

  /**
   * Where the runtime's data is in the core, as {file offset, length} each: libcoreclr.so's
   * writable segments, each type's method table (a few hundred bytes from it), the first FactItems'
   * headers.
   */
  private List<long[]> runtimePlaces(Path core) throws IOException {
    List<long[]> places = new ArrayList<>();
    List<long[]> loads = ElfLoads.of(core);
    List<long[]> writable = ElfLoads.writable(core);
    try (ElfCore c = ElfCore.open(core)) {
      for (MappedFile f : c.mappedFiles()) {
        if (f.fileName().equals("libcoreclr.so")) {
          for (long[] w : writable) {
            long from = Math.max(w[0], f.start());
            long to = Math.min(w[0] + w[2], f.end());
            if (from < to) {
              places.add(new long[] {w[1] + (from - w[0]), to - from});
            }
          }
        }
      }
    }
    assertThat(places).as("libcoreclr.so's data in the core").isNotEmpty();
    JsonNode stat = AnalyzeCli.one(AnalyzeCli.core(core), "dumpheap -stat");
    for (JsonNode t : stat.get("types")) {
      long offset = ElfLoads.fileOffset(loads, AnalyzeCli.address(t.get("methodTable")));
      if (offset >= 0) {
        places.add(new long[] {offset, 256});
      }
    }
    JsonNode items =
        AnalyzeCli.one(AnalyzeCli.core(core), "dumpheap -short -type TargetApp.FactItem");
    anObject = AnalyzeCli.address(items.get("objects").get(0).get("address"));
    for (int i = 0; i < Math.min(50, items.get("objects").size()); i++) {
      long offset =
          ElfLoads.fileOffset(
              loads, AnalyzeCli.address(items.get("objects").get(i).get("address")));
      if (offset >= 0) {
        places.add(new long[] {offset - 8, 32});
      }
    }
    return places;
  }

  // Changes 1-8 bytes of one place; returns each {offset, old byte, new byte}.
  private static long[][] flip(FileChannel file, List<long[]> places, Random random)
      throws IOException {
    long[] place = places.get(random.nextInt(places.size()));
    long[][] flips = new long[1 + random.nextInt(8)][];
    for (int k = 0; k < flips.length; k++) {
      long at = place[0] + (long) (random.nextDouble() * place[1]);
      ByteBuffer old = ByteBuffer.allocate(1);
      file.read(old, at);
      int now = random.nextInt(256);
      flips[k] = new long[] {at, old.get(0) & 0xff, now};
      file.write(ByteBuffer.wrap(new byte[] {(byte) now}), at);
    }
    return flips;
  }

  private static void unflip(FileChannel file, long[][] flips) throws IOException {
    for (int k = flips.length - 1; k >= 0; k--) {
      file.write(ByteBuffer.wrap(new byte[] {(byte) flips[k][1]}), flips[k][0]);
    }
  }

  private static void reflip(FileChannel file, long[][] flips) throws IOException {
    for (long[] f : flips) {
      file.write(ByteBuffer.wrap(new byte[] {(byte) f[2]}), f[0]);
    }
  }

  private static String describe(long[][] flips) {
    StringBuilder b = new StringBuilder();
    for (long[] f : flips) {
      b.append(String.format("%#x:%02x->%02x ", f[0], f[1], f[2]));
    }
    return b.toString().strip();
  }

  /**
   * What a run through the DAC process came to: ok, one line (exit 1 with one line on stderr, not
   * an internal error), the DAC process's end (by which signal), or OTHER and what it was.
   */
  private static String outcome(DacProcess.Result r) {
    if (r.timedOut()) {
      return "OTHER past its deadline";
    }
    if (r.exitCode() == null) {
      return "dac process ended " + r.ending().signal();
    }
    if (r.stderr().contains("internal error") || r.stderr().contains("\tat ")) {
      return "OTHER exit " + r.exitCode() + ": " + r.stderr();
    }
    if (r.exitCode() == 0) {
      return "ok";
    }
    // What the walk could not read is said in warnings before the error, if any.
    List<String> lines = r.stderr().lines().filter(l -> !l.startsWith("warning: ")).toList();
    if (r.exitCode() == 1 && lines.size() == 1 && !lines.get(0).contains("internal error")) {
      // The kind of failure: the words before the first address or number.
      return "one line " + lines.get(0).replaceAll("(0x[0-9a-f]+|[0-9]+).*", "").strip();
    }
    return "OTHER exit " + r.exitCode() + ": " + r.stderr();
  }

  private static int headersEnd(byte[] core) {
    ByteBuffer b = ByteBuffer.wrap(core).order(java.nio.ByteOrder.LITTLE_ENDIAN);
    long phoff = b.getLong(32);
    int phnum = Short.toUnsignedInt(b.getShort(56));
    int end = (int) (phoff + 56L * phnum);
    for (int i = 0; i < phnum; i++) {
      int at = (int) phoff + 56 * i;
      if (b.getInt(at) == 4) {
        end = Math.max(end, (int) (b.getLong(at + 8) + b.getLong(at + 32)));
      }
    }
    return end;
  }

  // Changes 1-8 bytes, mostly in the headers and notes; returns where.
  private static int[] mutate(FileChannel file, byte[] good, Random random, int headers)
      throws IOException {
    int[] where = new int[1 + random.nextInt(8)];
    for (int k = 0; k < where.length; k++) {
      where[k] = random.nextInt(4) == 0 ? random.nextInt(good.length) : random.nextInt(headers);
      file.write(ByteBuffer.wrap(new byte[] {(byte) random.nextInt(256)}), where[k]);
    }
    return where;
  }

  private static void restore(FileChannel file, byte[] good, int[] where) throws IOException {
    for (int at : where) {
      file.write(ByteBuffer.wrap(new byte[] {good[at]}), at);
    }
  }

  private static String readElf(Path core) {
    try (ElfCore c = ElfCore.open(core)) {
      byte[] buf = new byte[1 << 16];
      c.threads().forEach(ThreadRegisters::toContext);
      for (MappedFile f : c.mappedFiles()) {
        c.read(f.start(), buf, 0, 256);
        ElfImage.buildIdInMemory(c, f.start());
      }
      return "ok";
    } catch (RuntimeException e) {
      return outcome(e);
    }
  }

  // What a refusal was: its kind when it is one line, else OTHER and what it was.
  private static String outcome(RuntimeException e) {
    if (e instanceof TargetException t) {
      return t.getMessage().contains("\n")
          ? "OTHER multi-line " + t.getMessage()
          : t.problem().toString();
    }
    return "OTHER " + e;
  }
}
