package dev.clrscope.dac.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clrscope.dac.TargetException;
import dev.clrscope.dac.TargetException.Problem;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The ELF core reader on cores written by {@link CoreBuilder}, and on damaged ones. */
class ElfCoreTest {
  private static final long HEAP = 0x7f0000100000L;
  private static final long IMAGE = 0x7f0000200000L;
  private static final byte[] ID = {
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20
  };

  @TempDir Path dir;

  private static byte[] pattern(int size, int seed) {
    byte[] b = new byte[size];
    for (int i = 0; i < size; i++) {
      b[i] = (byte) (i * 31 + seed);
    }
    return b;
  }

  private Path write(String name, byte[] bytes) throws IOException {
    Path p = dir.resolve(name);
    Files.write(p, bytes);
    return p;
  }

  private CoreBuilder typical(Path library) {
    return new CoreBuilder()
        .thread(4242, 0x401000, 0x7ffd0000)
        .thread(4250, 0x402000, 0x7ffc0000)
        .load(HEAP, pattern(8192, 1), 8192)
        .load(HEAP + 0x10000, pattern(4096, 2), 4096)
        // Only the library's first page (its headers) is in the core, as createdump leaves it.
        .load(IMAGE, Arrays.copyOf(CoreBuilder.elfImage(ID, 12288), 4096), 4096)
        .file(IMAGE, IMAGE + 12288, 0, library.toString());
  }

  @Test
  void readsThreadsFilesAndMemory() throws IOException {
    Path lib = write("libcoreclr.so", CoreBuilder.elfImage(ID, 12288));
    Path core = write("core", typical(lib).build());

    try (ElfCore c = ElfCore.open(core)) {
      assertThat(c.pid()).isEqualTo(4242);
      assertThat(c.command()).isEqualTo("dotnet app.dll");
      assertThat(c.threads()).extracting(ThreadRegisters::threadId).containsExactly(4242, 4250);
      assertThat(c.threads().get(1).rip()).isEqualTo(0x402000);
      assertThat(c.threads().get(1).rsp()).isEqualTo(0x7ffc0000);
      assertThat(c.mappedFiles())
          .containsExactly(new MappedFile(IMAGE, IMAGE + 12288, 0, lib.toString()));
      assertThat(c.auxv()).containsEntry(6L, 4096L);
      assertThat(c.describe()).isEqualTo("core " + core);

      byte[] buf = new byte[100];
      assertThat(c.read(HEAP + 10, buf, 0, 100)).isEqualTo(100);
      assertThat(buf).isEqualTo(Arrays.copyOfRange(pattern(8192, 1), 10, 110));
      // A read across the end of a segment stops at the gap.
      assertThat(c.read(HEAP + 8192 - 40, buf, 0, 100)).isEqualTo(40);
      assertThat(c.read(HEAP + 0x8000, buf, 0, 100)).isZero();
      assertThat(c.read(0x1000, buf, 0, 8)).isZero();
    }
  }

  @Test
  void theRegistersBecomeAnAmd64Context() {
    long[] regs = new long[ThreadRegisters.COUNT];
    for (int i = 0; i < regs.length; i++) {
      regs[i] = 100L + i;
    }
    byte[] context = new ThreadRegisters(7, regs).toContext();

    ByteBuffer c = ByteBuffer.wrap(context).order(ByteOrder.LITTLE_ENDIAN);
    assertThat(context).hasSize(1232);
    assertThat(c.getInt(0x30)).isEqualTo(0x100007);
    assertThat(c.getLong(0xf8)).as("Rip").isEqualTo(100 + ThreadRegisters.RIP);
    assertThat(c.getLong(0x98)).as("Rsp").isEqualTo(100 + ThreadRegisters.RSP);
    assertThat(c.getLong(0xa0)).as("Rbp").isEqualTo(100 + ThreadRegisters.RBP);
    assertThat(c.getLong(0x78)).as("Rax").isEqualTo(100 + ThreadRegisters.RAX);
    assertThat(c.getLong(0xf0)).as("R15").isEqualTo(100 + ThreadRegisters.R15);
    assertThat(c.getShort(0x38)).as("SegCs").isEqualTo((short) (100 + ThreadRegisters.CS));
  }

  @Test
  void cleanPagesComeFromTheMappedFileWhenItIsTheSameBuild() throws IOException {
    byte[] image = CoreBuilder.elfImage(ID, 12288);
    image[5000] = 77;
    Path lib = write("libcoreclr.so", image);
    Path core = write("core", typical(lib).build());

    try (ElfCore c = ElfCore.open(core)) {
      byte[] buf = new byte[8];
      assertThat(c.read(IMAGE + 5000, buf, 0, 1)).isEqualTo(1);
      assertThat(buf[0]).isEqualTo((byte) 77);
      // A read that starts in the core and goes on in the file.
      byte[] both = new byte[8192];
      assertThat(c.read(IMAGE, both, 0, 8192)).isEqualTo(8192);
      assertThat(Arrays.copyOfRange(both, 4096, 8192))
          .isEqualTo(Arrays.copyOfRange(image, 4096, 8192));
      assertThat(ElfImage.buildIdInMemory(c, IMAGE)).isEqualTo(ID);
    }
  }

  @Test
  void aMappedFileOfAnotherBuildIsNotRead() throws IOException {
    byte[] other = ID.clone();
    other[0] = 99;
    Path lib = write("libcoreclr.so", CoreBuilder.elfImage(other, 12288));
    Path core = write("core", typical(lib).build());

    try (ElfCore c = ElfCore.open(core)) {
      assertThat(c.read(IMAGE + 5000, new byte[8], 0, 8)).isZero();
      assertThat(ElfImage.buildIdOfFile(lib)).isEqualTo(other);
      assertThat(ElfImage.buildIdInMemory(c, IMAGE)).isEqualTo(ID);
    }
  }

  @Test
  void pagesInTheCoreWinOverTheFile() throws IOException {
    byte[] image = CoreBuilder.elfImage(ID, 12288);
    Path lib = write("libcoreclr.so", image);
    // The library's second page relocated: its bytes in the core differ from the file's.
    byte[] relocated = pattern(4096, 9);
    Path core = write("core", typical(lib).load(IMAGE + 4096, relocated, 4096).build());

    try (ElfCore c = ElfCore.open(core)) {
      byte[] buf = new byte[4096];
      assertThat(c.read(IMAGE + 4096, buf, 0, 4096)).isEqualTo(4096);
      assertThat(buf).isEqualTo(relocated);
    }
  }

  @Test
  void whatIsNotACoreIsSaidInOneLine() throws IOException {
    Path text =
        write("notes.txt", "hello, not a core".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    Path empty = write("empty", new byte[0]);
    Path library = write("lib.so", CoreBuilder.elfImage(ID, 4096));

    assertProblem(
        text,
        Problem.NOT_A_CORE,
        text + " is not an ELF file: give a core file (clrscope dump writes one)");
    assertProblem(
        empty,
        Problem.NOT_A_CORE,
        empty + " is not an ELF file: give a core file (clrscope dump writes one)");
    assertProblem(
        library,
        Problem.NOT_A_CORE,
        library
            + " is an ELF shared library or executable, not a core dump: give a core file (clrscope dump writes one)");
    assertProblem(dir, Problem.NOT_A_CORE, dir + " is not a regular file: give a core file");
    assertProblem(
        dir.resolve("missing"),
        Problem.NOT_A_CORE,
        dir.resolve("missing") + " does not exist: give a core file");
  }

  @Test
  void aCoreOfAnotherArchitectureIsNamed() throws IOException {
    CoreBuilder arm = new CoreBuilder().thread(1, 0, 0).load(HEAP, new byte[4096], 4096);
    arm.machine = 183;
    Path core = write("arm.core", arm.build());

    assertProblem(
        core,
        Problem.UNSUPPORTED_ARCHITECTURE,
        core
            + " is a core of a ARM64 process; clrscope reads x86-64 cores only: analyze it on a machine of that architecture with dotnet-dump");
  }

  @Test
  void aTruncatedCoreSaysWhereItEnds() throws IOException {
    Path lib = write("libcoreclr.so", CoreBuilder.elfImage(ID, 12288));
    byte[] whole = typical(lib).build();
    Path core = write("cut.core", Arrays.copyOf(whole, whole.length - 1000));

    assertProblem(
        core,
        Problem.TRUNCATED_CORE,
        core
            + " is cut short: its memory segments reach byte "
            + whole.length
            + " of a "
            + (whole.length - 1000)
            + "-byte file (the dump was interrupted or the disk was full); take the dump again");
  }

  private static void assertProblem(Path core, Problem problem, String message) {
    assertThatThrownBy(() -> ElfCore.open(core).close())
        .isInstanceOfSatisfying(
            TargetException.class, e -> assertThat(e.problem()).isEqualTo(problem))
        .hasMessage(message)
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
  }

  /**
   * Every truncation point of the headers and notes, and thousands of seeded corruptions anywhere,
   * end in a {@link TargetException} or a core that reads without any other exception, each in
   * bounded time.
   */
  @Test
  void truncationsAndCorruptionsEndCleanly() throws IOException {
    Path lib = write("libcoreclr.so", CoreBuilder.elfImage(ID, 12288));
    CoreBuilder b = typical(lib);
    for (int i = 0; i < 20; i++) {
      b.thread(5000 + i, 0x400000 + i, 0x7ff00000 + i);
      b.file(
          0x7e0000000000L + 0x10000L * i,
          0x7e0000000000L + 0x10000L * i + 0x3000,
          0x1000L * i,
          "/no/such/lib" + i + ".so");
    }
    byte[] good = b.build();
    Random random = new Random(20261126);
    Path mutant = dir.resolve("mutant.core");
    int opened = 0;
    int refused = 0;
    long started = System.nanoTime();
    for (int cut = 0; cut < 8192 && cut < good.length; cut += 1 + cut / 64) {
      int[] r = exercise(mutant, Arrays.copyOf(good, cut));
      opened += r[0];
      refused += r[1];
    }
    for (int i = 0; i < 4000; i++) {
      byte[] bad = good.clone();
      int changes = 1 + random.nextInt(8);
      for (int k = 0; k < changes; k++) {
        // Mostly the headers and notes, where a corruption changes what is parsed.
        int at =
            random.nextInt(4) == 0
                ? random.nextInt(bad.length)
                : random.nextInt(Math.min(bad.length, 8192));
        bad[at] = random.nextInt(3) == 0 ? (byte) 0xff : (byte) random.nextInt(256);
      }
      int[] r = exercise(mutant, bad);
      opened += r[0];
      refused += r[1];
    }
    assertThat(opened).as("mutants that still open").isPositive();
    assertThat(refused).as("mutants refused").isPositive();
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofMinutes(2));
  }

  private static int[] exercise(Path file, byte[] bytes) throws IOException {
    Files.write(file, bytes);
    long started = System.nanoTime();
    ElfCore core;
    try {
      core = ElfCore.open(file);
    } catch (TargetException e) {
      assertThat(e.getMessage()).doesNotContain("\n");
      return new int[] {0, 1};
    }
    try (core) {
      byte[] buf = new byte[65536];
      core.threads().forEach(ThreadRegisters::toContext);
      for (MappedFile f : core.mappedFiles()) {
        core.read(f.start(), buf, 0, 64);
        ElfImage.buildIdInMemory(core, f.start());
      }
      core.read(HEAP, buf, 0, buf.length);
      core.read(IMAGE, buf, 0, buf.length);
      ElfImage.versionInMemory(core, IMAGE);
    }
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
    return new int[] {1, 0};
  }
}
