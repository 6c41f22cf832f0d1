package dev.clrscope.e2e;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
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
   * and thousands of corruptions there (the ELF reader), and forty through the whole model (the DAC
   * reading what the damaged core shows), each ending cleanly.
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
      for (int i = 0; i < 40; i++) {
        int[] where = mutate(file, good, random, headers);
        outcomes.merge("dac " + readModel(core), 1, Integer::sum);
        restore(file, good, where);
      }
    }
    assertThat(outcomes.keySet())
        .as("%s", outcomes)
        .allMatch(k -> !k.contains("OTHER"))
        .anyMatch(k -> k.startsWith("elf ok"))
        .anyMatch(k -> k.startsWith("dac ok"));
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

  private String readModel(Path core) {
    try (DacSession p = DacSession.openCore(core, options())) {
      p.heap().statistics();
      p.runtime().threads().forEach(t -> p.runtime().stack(t.osId()));
      List<Object> roots = new ArrayList<>();
      p.heap().roots(roots::add);
      return "ok";
    } catch (RuntimeException e) {
      return outcome(e);
    }
  }
}
