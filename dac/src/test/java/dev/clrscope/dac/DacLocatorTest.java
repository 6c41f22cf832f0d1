package dev.clrscope.dac;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clrscope.dac.TargetException.Problem;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Where the DAC is looked for, in order, and what is said when it is nowhere. */
class DacLocatorTest {
  private static final byte[] ID = {
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20
  };
  private static final String HEX = "0102030405060708090a0b0c0d0e0f1011121314";
  private static final String KEY =
      "libmscordaccore.so/elf-buildid-coreclr-" + HEX + "/libmscordaccore.so";

  @TempDir Path dir;

  private DacOptions options() {
    return new DacOptions(null, dir.resolve("cache"), null, Duration.ofSeconds(1), 1 << 20);
  }

  private Path runtime(byte[] id, boolean withDac) throws IOException {
    Path rt = Files.createDirectories(dir.resolve("runtime"));
    Files.write(rt.resolve("libcoreclr.so"), elf(id));
    if (withDac) {
      Files.write(rt.resolve("libmscordaccore.so"), new byte[] {1});
    }
    return rt.resolve("libcoreclr.so");
  }

  @Test
  void theRuntimeDirectoryWinsWhenItIsTheSameBuild() throws IOException {
    Path coreclr = runtime(ID, true);
    Files.createDirectories(dir.resolve("cache").resolve(KEY).getParent());
    Files.write(dir.resolve("cache").resolve(KEY), new byte[] {2});

    DacLocator.Found found = DacLocator.locate(coreclr, ID, options());

    assertThat(found.dac()).isEqualTo(coreclr.resolveSibling("libmscordaccore.so"));
    assertThat(found.how()).isEqualTo("runtime directory");
  }

  @Test
  void aRuntimeDirectoryOfAnotherBuildIsPassedForTheCache() throws IOException {
    byte[] other = ID.clone();
    other[19] = 99;
    Path coreclr = runtime(other, true);
    Files.createDirectories(dir.resolve("cache").resolve(KEY).getParent());
    Files.write(dir.resolve("cache").resolve(KEY), new byte[] {2});

    DacLocator.Found found = DacLocator.locate(coreclr, ID, options());

    assertThat(found.dac()).isEqualTo(dir.resolve("cache").resolve(KEY));
    assertThat(found.how()).isEqualTo("cache");
  }

  @Test
  void nowhereIsOneLineWithEveryPlace() throws IOException {
    byte[] other = ID.clone();
    other[19] = 99;
    Path coreclr = runtime(other, true);

    assertThatThrownBy(() -> DacLocator.locate(coreclr, ID, options()))
        .isInstanceOfSatisfying(
            TargetException.class, e -> assertThat(e.problem()).isEqualTo(Problem.DAC_NOT_FOUND))
        .hasMessage(
            "no DAC for runtime build-id "
                + HEX
                + ": the runtime directory "
                + coreclr.getParent()
                + " (its libcoreclr.so is build 0102030405060708090a0b0c0d0e0f1011121363); not in the cache "
                + dir.resolve("cache").resolve(KEY)
                + " (no symbol server); give --dac PATH (the libmscordaccore.so of that runtime build) or"
                + " --symbol-server URL");
  }

  @Test
  void aGivenDacIsUsedAsItIsAndMustExist() throws IOException {
    Path dac = Files.write(dir.resolve("my-dac.so"), new byte[] {3});
    assertThat(DacLocator.locate(null, null, options().withDac(dac)))
        .isEqualTo(new DacLocator.Found(dac, "given"));
    assertThatThrownBy(() -> DacLocator.locate(null, ID, options().withDac(dir.resolve("none.so"))))
        .isInstanceOfSatisfying(
            TargetException.class, e -> assertThat(e.problem()).isEqualTo(Problem.DAC_NOT_FOUND))
        .hasMessage("the DAC " + dir.resolve("none.so") + " given with --dac is not a file");
  }

  @Test
  void anUnreadableBuildIdAsksForTheDac() {
    assertThatThrownBy(() -> DacLocator.locate(dir.resolve("libcoreclr.so"), null, options()))
        .isInstanceOfSatisfying(
            TargetException.class, e -> assertThat(e.problem()).isEqualTo(Problem.DAC_NOT_FOUND))
        .hasMessageStartingWith("the runtime's build-id is not readable in the target");
  }

  // A minimal ELF shared library with one PT_NOTE holding a GNU build-id.
  static byte[] elf(byte[] buildId) {
    ByteBuffer b = ByteBuffer.allocate(4096).order(ByteOrder.LITTLE_ENDIAN);
    b.put(new byte[] {0x7f, 'E', 'L', 'F', 2, 1, 1, 0});
    b.position(16);
    b.putShort((short) 3).putShort((short) 62).putInt(1);
    b.putLong(0).putLong(64).putLong(0).putInt(0);
    b.putShort((short) 64).putShort((short) 56).putShort((short) 1);
    b.putShort((short) 64).putShort((short) 0).putShort((short) 0);
    b.position(64);
    int noteAt = 64 + 56;
    b.putInt(4).putInt(4).putLong(noteAt).putLong(noteAt).putLong(0);
    b.putLong(16 + buildId.length).putLong(16 + buildId.length).putLong(4);
    b.position(noteAt);
    b.putInt(4).putInt(buildId.length).putInt(3);
    b.put("GNU".getBytes(StandardCharsets.US_ASCII)).put((byte) 0).put(buildId);
    return b.array();
  }
}
