package dev.clrscope.dac;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clrscope.dac.TargetException.Problem;
import dev.clrscope.dac.source.ElfImage;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where the DAC is looked for, in order, what is passed over and said, and what is said when it is
 * nowhere. The runtime's files are the installed runtime's own, copied where the test needs them.
 */
class DacLocatorTest {
  private static final byte[] OTHER_ID = {
    1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20
  };

  @TempDir Path dir;
  private byte[] id;
  private String version;
  private String key;
  private final List<String> notes = new ArrayList<>();

  @BeforeEach
  void runtime() throws Exception {
    id = ElfImage.buildIdOfFile(InstalledRuntime.coreclr());
    version = ElfImage.versionInFile(InstalledRuntime.coreclr());
    assertThat(id).isNotNull();
    assertThat(version).contains("@Commit:");
    key = "libmscordaccore.so/elf-buildid-coreclr-" + ElfImage.hex(id) + "/libmscordaccore.so";
  }

  private DacOptions options() {
    return new DacOptions(
        null, dir.resolve("cache"), null, Duration.ofSeconds(1), 1 << 24, false, notes::add);
  }

  /** A copy of the installed runtime's libcoreclr.so (or a stand-in of another build) and DAC. */
  private Path runtime(byte[] buildId, boolean withDac) throws Exception {
    Path rt = Files.createDirectories(dir.resolve("runtime"));
    if (buildId == null) {
      Files.copy(InstalledRuntime.coreclr(), rt.resolve("libcoreclr.so"));
    } else {
      Files.write(rt.resolve("libcoreclr.so"), elf(buildId));
    }
    if (withDac) {
      Files.copy(InstalledRuntime.dac(), rt.resolve("libmscordaccore.so"));
    }
    return rt.resolve("libcoreclr.so");
  }

  private Path cached() throws Exception {
    Path file = dir.resolve("cache").resolve(key);
    Files.createDirectories(file.getParent());
    Files.copy(InstalledRuntime.dac(), file);
    return file;
  }

  @Test
  void theRuntimeDirectoryWinsWhenItIsTheSameBuildAndTrusted() throws Exception {
    Path coreclr = runtime(null, true);
    cached();

    DacLocator.Found found = DacLocator.locate(coreclr, id, version, options());

    assertThat(found.dac()).isEqualTo(coreclr.resolveSibling("libmscordaccore.so").toRealPath());
    assertThat(found.how()).isEqualTo("runtime directory");
    assertThat(notes).isEmpty();
  }

  @Test
  void aRuntimeDirectoryOthersMayWriteIsPassedOverAndSaidThenTheCacheIsUsed() throws Exception {
    Path coreclr = runtime(null, true);
    Path rt = coreclr.getParent();
    Files.setPosixFilePermissions(rt, PosixFilePermissions.fromString("rwxrwxrwx"));
    Path inCache = cached();

    DacLocator.Found found = DacLocator.locate(coreclr, id, version, options());

    assertThat(found).isEqualTo(new DacLocator.Found(inCache, "cache"));
    assertThat(notes)
        .containsExactly(
            "passed over the DAC "
                + rt.resolve("libmscordaccore.so")
                + " beside the target's runtime: "
                + rt
                + " is writable by everyone (owner root, mode 0777); trying the symbol cache and"
                + " the symbol server");
  }

  @Test
  void anotherUsersRuntimeDirectoryIsPassedOver() throws Exception {
    Path coreclr = runtime(null, true);
    Path rt = coreclr.getParent();
    Files.setAttribute(rt, "unix:uid", 54321);
    cached();

    DacLocator.Found found = DacLocator.locate(coreclr, id, version, options());

    assertThat(found.how()).isEqualTo("cache");
    assertThat(notes)
        .containsExactly(
            "passed over the DAC "
                + rt.resolve("libmscordaccore.so")
                + " beside the target's runtime: "
                + rt
                + " belongs to 54321 (uid 54321, mode 0755), not to root or to you; trying the"
                + " symbol cache and the symbol server");
  }

  @Test
  void aFileBesideTheRuntimeThatIsNoDacIsPassedOver() throws Exception {
    Path coreclr = runtime(null, false);
    // libcoreclr.so has the build-id, but the file beside it is no DAC of that runtime.
    Files.copy(InstalledRuntime.coreclr(), coreclr.resolveSibling("libmscordaccore.so"));
    Path inCache = cached();

    DacLocator.Found found = DacLocator.locate(coreclr, id, version, options());

    assertThat(found.dac()).isEqualTo(inCache);
    assertThat(notes)
        .containsExactly(
            "passed over the DAC "
                + coreclr.resolveSibling("libmscordaccore.so")
                + " beside the target's runtime: it is not a DAC: it exports no"
                + " CLRDataCreateInstance; trying the symbol cache and the symbol server");
  }

  @Test
  void aRuntimeDirectoryOfAnotherBuildIsPassedForTheCache() throws Exception {
    Path coreclr = runtime(OTHER_ID, true);
    Path inCache = cached();

    DacLocator.Found found = DacLocator.locate(coreclr, id, version, options());

    assertThat(found).isEqualTo(new DacLocator.Found(inCache, "cache"));
    assertThat(notes).isEmpty();
  }

  @Test
  void nowhereIsOneLineWithEveryPlace() throws Exception {
    Path coreclr = runtime(OTHER_ID, true);

    assertThatThrownBy(() -> DacLocator.locate(coreclr, id, version, options()))
        .isInstanceOfSatisfying(
            TargetException.class, e -> assertThat(e.problem()).isEqualTo(Problem.DAC_NOT_FOUND))
        .hasMessage(
            "no DAC for runtime build-id "
                + ElfImage.hex(id)
                + ": the runtime directory "
                + coreclr.getParent()
                + " (its libcoreclr.so is build 0102030405060708090a0b0c0d0e0f1011121314); not in"
                + " the cache "
                + dir.resolve("cache").resolve(key)
                + " (no symbol server); give --dac PATH (the libmscordaccore.so of that runtime"
                + " build) or --symbol-server URL");
  }

  @Test
  void aBadFileInTheCacheIsNamedAndNotLoaded() throws Exception {
    Path file = dir.resolve("cache").resolve(key);
    Files.createDirectories(file.getParent());
    Files.writeString(file, "<html>not found</html>\n");

    assertThatThrownBy(() -> DacLocator.locate(null, id, version, options()))
        .hasMessage(
            "no DAC for runtime build-id "
                + ElfImage.hex(id)
                + ": the cache's "
                + file
                + " is not a DAC: it is not an ELF file (no symbol server); give --dac PATH (the"
                + " libmscordaccore.so of that runtime build) or --symbol-server URL");
  }

  @Test
  void aGivenDacIsUsedWhenItIsADacOfTheRuntime() throws Exception {
    Path dac = Files.copy(InstalledRuntime.dac(), dir.resolve("my-dac.so"));
    assertThat(DacLocator.locate(null, null, version, options().withDac(dac)))
        .isEqualTo(new DacLocator.Found(dac, "given"));
    // The target's version unread: only that it is a DAC.
    assertThat(DacLocator.locate(null, null, null, options().withDac(dac)).how())
        .isEqualTo("given");
    assertThatThrownBy(
            () -> DacLocator.locate(null, id, version, options().withDac(dir.resolve("none.so"))))
        .isInstanceOfSatisfying(
            TargetException.class, e -> assertThat(e.problem()).isEqualTo(Problem.DAC_NOT_FOUND))
        .hasMessage("the DAC " + dir.resolve("none.so") + " given with --dac is not a file");
  }

  @Test
  void aGivenFileThatIsNoDacOrOfAnotherVersionIsRefusedBeforeLoading() throws Exception {
    Path text = Files.writeString(dir.resolve("notes.txt"), "not a library\n");
    assertThatThrownBy(() -> DacLocator.locate(null, id, version, options().withDac(text)))
        .isInstanceOfSatisfying(
            TargetException.class, e -> assertThat(e.problem()).isEqualTo(Problem.DAC_FAILED))
        .hasMessage(
            "the DAC "
                + text
                + " given with --dac is not a DAC: it is not an ELF file: give the"
                + " libmscordaccore.so of the target's runtime build, or leave --dac out to have"
                + " it found");

    Path dac = Files.copy(InstalledRuntime.dac(), dir.resolve("dac.so"));
    String net8 = "8.0.3126.42015 @Commit: 1219a42122cf5190c7f512850557e38c422430dc";
    assertThatThrownBy(() -> DacLocator.locate(null, id, net8, options().withDac(dac)))
        .isInstanceOfSatisfying(
            TargetException.class, e -> assertThat(e.problem()).isEqualTo(Problem.DAC_FAILED))
        .hasMessage(
            "the DAC "
                + dac
                + " given with --dac is the DAC of runtime "
                + DacFile.describe(version)
                + ", not of the target's runtime 8.0.3126.42015 (commit 1219a42122cf): give the"
                + " libmscordaccore.so of the target's runtime build, or leave --dac out to have"
                + " it found");
  }

  @Test
  void anUnreadableBuildIdAsksForTheDac() {
    assertThatThrownBy(
            () -> DacLocator.locate(dir.resolve("libcoreclr.so"), null, version, options()))
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
