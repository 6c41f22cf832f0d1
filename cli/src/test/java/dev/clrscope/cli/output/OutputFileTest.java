package dev.clrscope.cli.output;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clrscope.cli.CliRun;
import dev.clrscope.cli.CommandFailure;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files are written whole or not at all, never where they should not be. The full device is a
 * private node ({@code mknod FULL c 1 7}, as root, which the suite runs as): /dev/full itself is
 * never touched.
 */
class OutputFileTest {
  @TempDir Path dir;
  private Path full;

  @BeforeEach
  void privateFullDevice() throws Exception {
    full = dir.resolve("full");
    Process mknod = new ProcessBuilder("mknod", full.toString(), "c", "1", "7").start();
    assertThat(mknod.waitFor(10, TimeUnit.SECONDS)).isTrue();
    assertThat(mknod.exitValue()).as("mknod needs root, which the suite runs as").isZero();
  }

  private static OutputFile.Content<String> text(String s) {
    return out -> {
      out.write(s.getBytes(StandardCharsets.UTF_8));
      return s;
    };
  }

  @Test
  void aRegularFileIsReplacedWholeAndNothingIsLeftBeside() throws Exception {
    Path file = dir.resolve("out.json");
    Files.writeString(file, "old");
    assertThat(OutputFile.write(file, text("new"))).isEqualTo("new");
    assertThat(file).hasContent("new");
    try (var entries = Files.list(dir)) {
      assertThat(entries).containsExactlyInAnyOrder(file, full);
    }
  }

  @Test
  void aFailureLeavesTheOldFileAndNoPartialOne() throws Exception {
    Path file = dir.resolve("out.json");
    Files.writeString(file, "old");
    assertThatThrownBy(
            () ->
                OutputFile.write(
                    file,
                    out -> {
                      out.write(new byte[100_000]);
                      throw new IOException("the trace broke off");
                    }))
        .isInstanceOf(CommandFailure.class)
        .hasMessage("could not write " + file + ": the trace broke off");
    assertThat(file).hasContent("old");
    try (var entries = Files.list(dir)) {
      assertThat(entries).containsExactlyInAnyOrder(file, full);
    }
  }

  @Test
  void aFullDeviceIsWrittenInPlaceFailsWithTheReasonAndStaysADevice() throws Exception {
    assertThatThrownBy(() -> OutputFile.write(full, text("x".repeat(200_000))))
        .isInstanceOf(CommandFailure.class)
        .hasMessage("could not write " + full + ": No space left on device");
    assertThat(Files.readAttributes(full, PosixFileAttributes.class).isOther()).isTrue();
  }

  @Test
  void aDirectoryOrAMissingDirectoryIsNamed() {
    assertThatThrownBy(() -> OutputFile.write(dir, text("x")))
        .hasMessage("could not write " + dir + ": it is a directory");
    Path missing = dir.resolve("no/such/out.json");
    assertThatThrownBy(() -> OutputFile.write(missing, text("x")))
        .hasMessage("could not write " + missing + ": no such file or directory");
  }

  @Test
  void traceConvertAndStatsSayWhatIsWrongWithTheirFiles() throws Exception {
    Path golden = golden();
    CliRun convert = CliRun.of("trace", "convert", golden.toString(), "-o", full.toString());
    assertThat(convert.exit()).isEqualTo(1);
    assertThat(convert.err())
        .isEqualTo(
            "clrscope trace convert: could not write " + full + ": No space left on device\n");
    assertThat(Files.readAttributes(full, PosixFileAttributes.class).isOther()).isTrue();

    CliRun directory = CliRun.of("trace", "stats", dir.toString());
    assertThat(directory.exit()).isEqualTo(1);
    assertThat(directory.err())
        .isEqualTo(
            "clrscope trace stats: "
                + dir
                + " is a directory, not a regular file: give a saved .nettrace file\n");

    CliRun device = CliRun.of("trace", "events", full.toString());
    assertThat(device.exit()).isEqualTo(1);
    assertThat(device.err())
        .isEqualTo(
            "clrscope trace events: "
                + full
                + " is a character device, not a regular file: give a saved .nettrace file\n");

    CliRun missing = CliRun.of("trace", "convert", dir.resolve("nope.nettrace").toString());
    assertThat(missing.exit()).isEqualTo(1);
    assertThat(missing.err()).startsWith("clrscope trace convert: no such file: ");
  }

  /** The runtime-written golden trace of the nettrace module. */
  private static Path golden() {
    for (Path d = Path.of(System.getProperty("user.dir")).toAbsolutePath();
        d != null;
        d = d.getParent()) {
      Path candidate = d.resolve("nettrace/src/test/resources/golden/golden.nettrace");
      if (Files.isRegularFile(candidate)) {
        return candidate;
      }
    }
    throw new AssertionError("golden.nettrace not found above " + System.getProperty("user.dir"));
  }
}
