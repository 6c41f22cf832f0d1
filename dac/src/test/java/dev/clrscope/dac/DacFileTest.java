package dev.clrscope.dac;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clrscope.dac.source.ElfImage;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What is read from a file before it may be loaded as the DAC: that it is an x86-64 ELF shared
 * library exporting CLRDataCreateInstance, and the runtime version it carries, against the
 * installed runtime's own files.
 */
class DacFileTest {
  private static final String NET8 =
      "8.0.3126.42015 @Commit: 1219a42122cf5190c7f512850557e38c422430dc";

  @TempDir Path dir;

  @Test
  void theInstalledDacCarriesItsRuntimesVersionAndCommit() throws Exception {
    String dac = ElfImage.versionInFile(InstalledRuntime.dac());
    String coreclr = ElfImage.versionInFile(InstalledRuntime.coreclr());
    assertThat(dac).matches("\\d+\\.\\d+\\.\\d+\\.\\d+ @Commit: [0-9a-f]{40}");
    assertThat(dac).isEqualTo(coreclr);
    // The runtime directory's name is the product version; the file version's third part starts
    // with its patch number (10.0.12: 10.0.1226.x).
    String product = InstalledRuntime.dir().getFileName().toString();
    String[] p = product.split("\\.", -1);
    assertThat(dac).startsWith(p[0] + "." + p[1] + "." + p[2]);
    assertThat(DacFile.problem(InstalledRuntime.dac(), coreclr)).isNull();
  }

  @Test
  void versionsAreComparedByVersionAndCommitAndDescribedShort() {
    assertThat(DacFile.describe(NET8)).isEqualTo("8.0.3126.42015 (commit 1219a42122cf)");
    assertThat(DacFile.describe("10.0.1226.42308")).isEqualTo("10.0.1226.42308");
    assertThat(DacFile.sameBuild(NET8, " " + NET8 + " ")).isTrue();
    assertThat(DacFile.sameBuild(NET8, "8.0.3126.42015")).isTrue();
    assertThat(DacFile.sameBuild(NET8, "8.0.3126.42015 @Commit: 0000")).isFalse();
    assertThat(DacFile.sameBuild(NET8, "8.0.3226.42015 @Commit: 1219a42122cf")).isFalse();
  }

  @Test
  void aDacOfAnotherVersionNamesBoth() throws Exception {
    String dac = ElfImage.versionInFile(InstalledRuntime.dac());
    assertThat(DacFile.problem(InstalledRuntime.dac(), NET8))
        .isEqualTo(
            "is the DAC of runtime "
                + DacFile.describe(dac)
                + ", not of the target's runtime 8.0.3126.42015 (commit 1219a42122cf)");
  }

  @Test
  void filesThatAreNoDacAreNamedAsSuch() throws Exception {
    Path text = Files.writeString(dir.resolve("notes.txt"), "just text\n");
    assertThat(DacFile.problem(text, null)).isEqualTo("is not a DAC: it is not an ELF file");
    assertThat(DacFile.problem(Files.write(dir.resolve("empty"), new byte[0]), null))
        .isEqualTo("is not a DAC: it is not an ELF file");
    assertThat(DacFile.problem(dir, null)).isEqualTo("is not a regular file");
    assertThat(DacFile.problem(InstalledRuntime.coreclr(), null))
        .isEqualTo("is not a DAC: it exports no CLRDataCreateInstance");

    byte[] arm = Files.readAllBytes(InstalledRuntime.dac());
    arm[18] = (byte) 183;
    arm[19] = 0;
    assertThat(DacFile.problem(Files.write(dir.resolve("arm.so"), arm), null))
        .isEqualTo("is not a DAC: it is an ELF file for ARM64, not for x86-64");

    byte[] exe = Files.readAllBytes(InstalledRuntime.dac());
    exe[16] = 2; // ET_EXEC
    assertThat(DacFile.problem(Files.write(dir.resolve("exe"), exe), null))
        .isEqualTo("is not a DAC: it is not a shared library");

    // Cut anywhere in its headers or tables, a DAC is refused, never an exception.
    byte[] whole = Files.readAllBytes(InstalledRuntime.dac());
    for (int cut : new int[] {10, 64, 4096, whole.length / 2, whole.length - 1}) {
      byte[] part = java.util.Arrays.copyOf(whole, cut);
      Path p = Files.write(dir.resolve("cut-" + cut), part);
      assertThat(DacFile.problem(p, ElfImage.versionInFile(InstalledRuntime.dac())))
          .as("cut at %d", cut)
          .isNotNull();
    }
  }

  @Test
  void aDacWithoutAVersionIsRefusedOnlyWhenTheTargetsIsKnown() throws Exception {
    byte[] bytes = Files.readAllBytes(InstalledRuntime.dac());
    byte[] mark = "@(#)Version ".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    for (int i = 0; i + mark.length <= bytes.length; i++) {
      if (java.util.Arrays.equals(bytes, i, i + mark.length, mark, 0, mark.length)) {
        bytes[i] = 'X';
      }
    }
    Path stripped = Files.write(dir.resolve("stripped.so"), bytes);
    assertThat(DacFile.problem(stripped, null)).isNull();
    assertThat(DacFile.problem(stripped, NET8))
        .isEqualTo(
            "carries no runtime version (no @(#)Version text) to compare with the target's"
                + " runtime 8.0.3126.42015 (commit 1219a42122cf)");
  }
}
