package dev.clrscope.cli.commands;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which core a DAC process opens while it parses a command, before the command asks for it. */
class DacCommandTest {
  @TempDir Path dir;

  /** The first bytes of an x86-64 ELF core file: enough for the words to name a core. */
  private Path core(String name) throws IOException {
    byte[] header = new byte[64];
    header[0] = 0x7f;
    header[1] = 'E';
    header[2] = 'L';
    header[3] = 'F';
    header[4] = 2; // 64-bit
    header[5] = 1; // little-endian
    header[6] = 1;
    header[16] = 4; // ET_CORE
    header[18] = 62; // x86-64
    header[20] = 1;
    return Files.write(dir.resolve(name), header);
  }

  @Test
  void theCoreACommandNamesIsOpenedAhead() throws IOException {
    Path core = core("app.core");
    assertThat(DacCommand.coreToOpenAhead(List.of("dump-heap", "report", core.toString())))
        .isEqualTo(core);
    assertThat(DacCommand.coreToOpenAhead(List.of("analyze", core.toString(), "-c", "gcroot 0x1")))
        .isEqualTo(core);
  }

  @Test
  void aCommandThatNamesItsOwnDacOrAsksForHelpHasNothingOpenedAhead() throws IOException {
    Path core = core("app.core");
    // No DAC is loaded before the one the command names: the runtime's would be, ahead.
    assertThat(
            DacCommand.coreToOpenAhead(List.of("analyze", core.toString(), "--dac", "/x/dac.so")))
        .isNull();
    assertThat(DacCommand.coreToOpenAhead(List.of("triage", "--dac=/x/dac.so", core.toString())))
        .isNull();
    assertThat(DacCommand.coreToOpenAhead(List.of("triage", core.toString(), "--help"))).isNull();
    assertThat(DacCommand.coreToOpenAhead(List.of("analyze", "-p", "123"))).isNull();
  }

  @Test
  void anOptionsValueIsNotTheCoreOpenedAhead() throws IOException {
    Path before = core("before.core");
    Path after = core("after.core");
    assertThat(
            DacCommand.coreToOpenAhead(
                List.of("triage", "--before=" + before, after.toString(), "--fail-on", "critical")))
        .isEqualTo(after);
    assertThat(DacCommand.namesACore(List.of("triage", "--before=" + before))).isTrue();
  }

  @Test
  void theGraphIsReadAheadOnlyForACommandThatReadsItFirst() {
    assertThat(DacCommand.readsGraphFirst(List.of("dump-heap", "report", "x.core"))).isTrue();
    assertThat(DacCommand.readsGraphFirst(List.of("dump-heap", "roots", "x.core", "--type", "T")))
        .isTrue();
    assertThat(DacCommand.readsGraphFirst(List.of("dump-heap", "dominators", "x.core"))).isTrue();
    assertThat(DacCommand.readsGraphFirst(List.of("dump-heap", "diff", "a.core", "b.core")))
        .isFalse();
    assertThat(DacCommand.readsGraphFirst(List.of("analyze", "x.core", "-c", "gcroot 0x1")))
        .isTrue();
    assertThat(DacCommand.readsGraphFirst(List.of("analyze", "x.core", "--command=paths 0x1")))
        .isTrue();
    assertThat(DacCommand.readsGraphFirst(List.of("analyze", "x.core", "-c", " retained -top 5")))
        .isTrue();
    assertThat(DacCommand.readsGraphFirst(List.of("analyze", "x.core", "-cdominators"))).isTrue();
    // The first command decides: the graph read first would make clrstack wait for it.
    assertThat(
            DacCommand.readsGraphFirst(
                List.of("analyze", "x.core", "-c", "clrstack -all", "-c", "gcroot 0x1")))
        .isFalse();
    assertThat(DacCommand.readsGraphFirst(List.of("analyze", "x.core"))).isFalse();
    assertThat(DacCommand.readsGraphFirst(List.of("analyze", "x.core", "-c"))).isFalse();
    assertThat(DacCommand.readsGraphFirst(List.of("triage", "x.core"))).isFalse();
    assertThat(DacCommand.readsGraphFirst(List.of())).isFalse();
  }
}
