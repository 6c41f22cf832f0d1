package dev.clrscope.nettrace;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A trace cut off anywhere (the target died, a rundown was abandoned) becomes a strictly valid
 * trace again by truncating it at the reader's {@link NetTraceReader#completeBytes()} and appending
 * {@link TraceEnding#marker}: what {@code trace collect} does with what it recorded.
 */
class TraceEndingTest {
  private static final Path V4 =
      Fixtures.pyroscope("dotnet-5.0-SampleProfiler-single-thread.nettrace");

  @Test
  void aWholeStreamIsCompleteUpToItsEndMarkerInAnyChunking() throws IOException {
    byte[] all = Files.readAllBytes(V4);
    Random random = new Random(42);
    for (int round = 0; round < 20; round++) {
      int max = round == 0 ? 1 : 70_000;
      try (NetTraceReader r = NetTraceReader.open(new Chunked(all, random, max), true)) {
        while (r.next() != null) {
          // Read it all.
        }
        assertThat(r.reachedEnd()).isTrue();
        // Everything but the final NullReference tag is complete objects.
        assertThat(r.completeBytes()).isEqualTo(all.length);
        assertThat(r.completeBytes() - TraceEnding.marker(4).length).isEqualTo(all.length - 1L);
        assertThat(r.trailingBytes()).isZero();
      }
    }
  }

  @Test
  void bytesAfterTheEndMarkerAreCountedNotRead() throws IOException {
    byte[] all = Files.readAllBytes(V4);
    for (byte[] tail : new byte[][] {new byte[] {0}, new byte[200_000], all}) {
      byte[] joined = Arrays.copyOf(all, all.length + tail.length);
      System.arraycopy(tail, 0, joined, all.length, tail.length);
      long events = 0;
      try (NetTraceReader r = NetTraceReader.open(new ByteArrayInputStream(joined), false)) {
        while (r.next() != null) {
          events++;
        }
        assertThat(r.reachedEnd()).isTrue();
        assertThat(r.completeBytes()).isEqualTo(all.length);
        assertThat(r.trailingBytes()).isEqualTo(tail.length);
      }
      long alone = 0;
      try (NetTraceReader r = NetTraceReader.open(new ByteArrayInputStream(all), false)) {
        while (r.next() != null) {
          alone++;
        }
      }
      assertThat(events).as("the events of the trace, none of what follows").isEqualTo(alone);
    }
  }

  @Test
  void everyCutOfAV4TraceRepairsToAStrictlyValidTrace(@TempDir Path dir) throws IOException {
    assertRepairs(Files.readAllBytes(V4), 4, dir);
  }

  @Test
  void everyCutOfAV6TraceRepairsToAStrictlyValidTrace(@TempDir Path dir) throws IOException {
    assertRepairs(NetTraceV6Test.synthesise(true), 6, dir);
  }

  @Test
  void theMarkersAreWhatTheWritersEndWith() {
    assertThat(TraceEnding.marker(4)).containsExactly(1);
    assertThat(TraceEnding.marker(3)).containsExactly(1);
    byte[] v6 = NetTraceV6Test.synthesise(false);
    assertThat(TraceEnding.marker(6))
        .containsExactly(Arrays.copyOfRange(v6, v6.length - 4, v6.length));
  }

  private static void assertRepairs(byte[] all, int version, Path dir) throws IOException {
    Path whole = dir.resolve("whole.nettrace");
    Files.write(whole, all);
    long fullEvents = TraceEnding.countEvents(whole);
    assertThat(fullEvents).isPositive();
    Random random = new Random(7);
    Path cut = dir.resolve("cut.nettrace");
    int repaired = 0;
    for (int i = 0; i < 60; i++) {
      int length = i == 0 ? all.length - 1 : 40 + random.nextInt(all.length - 40);
      byte[] prefix = Arrays.copyOf(all, length);
      long complete;
      long lenientEvents = 0;
      try (NetTraceReader lenient = NetTraceReader.open(new ByteArrayInputStream(prefix), true)) {
        while (lenient.next() != null) {
          lenientEvents++;
        }
        assertThat(lenient.reachedEnd()).isFalse();
        assertThat(lenient.header().formatVersion()).isEqualTo(version);
        complete = lenient.completeBytes();
      } catch (NetTraceFormatException e) {
        // Cut inside the headers: nothing to keep, and the reader says where.
        assertThat(e.offset()).isBetween(0L, (long) length);
        continue;
      }
      assertThat(complete).isBetween(1L, (long) length);
      Files.write(cut, prefix);
      TraceEnding.endAt(cut, complete, version);
      assertThat(Files.size(cut)).isEqualTo(complete + TraceEnding.marker(version).length);
      long events = TraceEnding.countEvents(cut);
      assertThat(events).isBetween(0L, fullEvents);
      // The lenient reader of the cut stream agrees with the strict reader of the repaired file.
      assertThat(lenientEvents).isEqualTo(events);
      repaired++;
    }
    assertThat(repaired).isGreaterThan(40);
  }

  /** Hands out a byte array in random chunk sizes, as a socket does. */
  private static final class Chunked extends InputStream {
    private final byte[] data;
    private final Random random;
    private final int max;
    private int at;

    Chunked(byte[] data, Random random, int max) {
      this.data = data;
      this.random = random;
      this.max = max;
    }

    @Override
    public int read() {
      return at < data.length ? data[at++] & 0xFF : -1;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (at >= data.length) {
        return -1;
      }
      int n = Math.min(Math.min(len, data.length - at), 1 + random.nextInt(max));
      System.arraycopy(data, at, b, off, n);
      at += n;
      return n;
    }
  }
}
