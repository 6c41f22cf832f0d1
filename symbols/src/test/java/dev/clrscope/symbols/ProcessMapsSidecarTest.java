package dev.clrscope.symbols;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A trace's maps sidecar that is no regular file, or names a library that is none, costs native
 * names only, with a warning: it is never opened (a FIFO would block for ever).
 */
class ProcessMapsSidecarTest {
  @TempDir Path dir;

  private void mkfifo(Path p) throws Exception {
    assertThat(new ProcessBuilder("mkfifo", p.toString()).start().waitFor()).isZero();
  }

  @Test
  void aLibraryThatIsAFifoIsSkippedAndItsFramesNamedByModule() throws Exception {
    Path trace = dir.resolve("t.nettrace");
    Path fifo = dir.resolve("libtrap.so");
    mkfifo(fifo);
    Files.writeString(
        ProcessMaps.sidecarOf(trace),
        "7f0000000000-7f0000100000 r-xp 00000000 08:01 42 " + fifo + "\n");
    ProcessMaps maps = ProcessMaps.forTrace(trace);

    assertThat(maps.nameOrNull(0x7f0000000123L)).isEqualTo("libtrap.so!0x7f0000000123");
    assertThat(maps.problems())
        .containsExactly(
            "skipped the symbols of "
                + fifo
                + ": it is a FIFO, not a regular file; its frames are named libtrap.so!0x...");
  }

  @Test
  void aSidecarThatIsAFifoIsNotRead() throws Exception {
    Path trace = dir.resolve("t.nettrace");
    mkfifo(ProcessMaps.sidecarOf(trace));
    ProcessMaps maps = ProcessMaps.forTrace(trace);
    assertThat(maps.size()).isZero();
    assertThat(maps.problems())
        .containsExactly(
            "ignored "
                + ProcessMaps.sidecarOf(trace)
                + " (it is a FIFO, not a regular file): native frames are named by address alone");
  }
}
