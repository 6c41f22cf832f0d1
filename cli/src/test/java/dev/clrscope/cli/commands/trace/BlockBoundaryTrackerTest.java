package dev.clrscope.cli.commands.trace;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clrscope.nettrace.NetTraceReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BlockBoundaryTrackerTest {
  private static final Path TRACE =
      Fixtures.pyroscope("dotnet-5.0-SampleProfiler-single-thread.nettrace");

  @Test
  void followsTheWholeFixtureInAnyChunking() throws IOException {
    byte[] all = Files.readAllBytes(TRACE);
    Random random = new Random(42);
    for (int round = 0; round < 20; round++) {
      BlockBoundaryTracker t = new BlockBoundaryTracker();
      int at = 0;
      while (at < all.length) {
        int n = Math.min(all.length - at, 1 + random.nextInt(round == 0 ? 1 : 70_000));
        t.accept(all, at, n);
        at += n;
      }
      assertThat(t.isUnderstood()).isTrue();
      assertThat(t.hasEnded()).isTrue();
      // Everything but the final NullReference tag is complete objects.
      assertThat(t.lastCompleteObjectEnd()).isEqualTo(all.length - 1L);
    }
  }

  @Test
  void everyCutRepairsToAStrictlyValidTrace(@TempDir Path dir) throws IOException {
    byte[] all = Files.readAllBytes(TRACE);
    long fullEvents = TraceFileRepair.verify(TRACE);
    Random random = new Random(7);
    Path cut = dir.resolve("cut.nettrace");
    int repaired = 0;
    for (int i = 0; i < 60; i++) {
      int length = i == 0 ? all.length - 1 : 200 + random.nextInt(all.length - 200);
      byte[] prefix = Arrays.copyOf(all, length);
      BlockBoundaryTracker t = new BlockBoundaryTracker();
      t.accept(prefix, 0, prefix.length);
      assertThat(t.hasEnded()).isFalse();
      assertThat(t.isUnderstood()).isTrue();
      if (!t.hasHeader()) {
        continue;
      }
      Files.write(cut, prefix);
      TraceFileRepair.endAt(cut, t.lastCompleteObjectEnd());
      assertThat(Files.size(cut)).isEqualTo(t.lastCompleteObjectEnd() + 1);
      long events = TraceFileRepair.verify(cut);
      assertThat(events).isBetween(0L, fullEvents);
      // The lenient reader of the cut file agrees with the strict reader of the repaired one.
      try (NetTraceReader lenient =
          NetTraceReader.open(new java.io.ByteArrayInputStream(prefix), true)) {
        long n = 0;
        while (lenient.next() != null) {
          n++;
        }
        assertThat(n).isEqualTo(events);
      }
      repaired++;
    }
    assertThat(repaired).isGreaterThan(50);
  }

  @Test
  void givesUpOnOtherFormats() {
    BlockBoundaryTracker t = new BlockBoundaryTracker();
    byte[] v6 = "Nettrace\0\0\0\0\6\0\0\0".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);
    t.accept(v6, 0, v6.length);
    assertThat(t.isUnderstood()).isFalse();
    assertThat(t.hasHeader()).isFalse();
  }
}
