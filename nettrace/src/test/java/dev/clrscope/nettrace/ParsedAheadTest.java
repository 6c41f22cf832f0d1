package dev.clrscope.nettrace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * A file's blocks parsed on a thread of their own ({@code NetTraceReader.open} of a file on two
 * cores) give what parsing each block in place gives: the same events in the same order, the same
 * counters, and the same error at the same point, for whole traces, every truncation, seeded
 * corruptions and a stream that hands its bytes over in odd pieces.
 */
class ParsedAheadTest {

  /** Everything a reader gave: each event's identity, then how it ended. */
  private static List<String> outcome(InputStream in, boolean lenient, boolean ahead) {
    List<String> seen = new ArrayList<>();
    try (NetTraceReader r =
        ahead ? NetTraceReader.openParsedAhead(in, lenient) : NetTraceReader.open(in, lenient)) {
      TraceEvent e;
      while ((e = r.next()) != null) {
        seen.add(
            e.metadata().metadataId()
                + "/"
                + e.sequenceNumber()
                + "/"
                + e.captureThreadId()
                + "/"
                + e.timestamp()
                + "/"
                + e.payloadLength()
                + "/"
                + e.stack().depth());
      }
      seen.add(
          "end: dropped "
              + r.droppedEvents()
              + ", blocks "
              + r.blocksRead()
              + ", sequence points "
              + r.sequencePoints()
              + ", complete "
              + r.completeBytes()
              + ", reached "
              + r.reachedEnd()
              + ", trailing "
              + r.trailingBytes()
              + ", stopped "
              + r.stopReason().map(Throwable::getMessage).orElse("-"));
    } catch (NetTraceFormatException ex) {
      seen.add("failed: " + ex.getMessage());
    }
    return seen;
  }

  private static void assertSame(byte[] data, boolean lenient) {
    assertThat(outcome(new ByteArrayInputStream(data), lenient, true))
        .isEqualTo(outcome(new ByteArrayInputStream(data), lenient, false));
  }

  private static byte[] golden(String name) throws IOException {
    return Files.readAllBytes(Path.of("src/test/resources/golden", name));
  }

  @Test
  void wholeTracesGiveTheSameEvents() throws IOException {
    for (byte[] data :
        new byte[][] {
          golden("golden.nettrace"),
          golden("runtime-all.nettrace"),
          Files.readAllBytes(Fixtures.perfview(Fixtures.ARRAY_TYPES)),
          Files.readAllBytes(Fixtures.perfview(Fixtures.CHECKPOINTS)),
          SyntheticTraceTest.synthesise()
        }) {
      List<String> inPlace = outcome(new ByteArrayInputStream(data), false, false);
      assertThat(inPlace.get(inPlace.size() - 1)).contains("reached true");
      assertThat(outcome(new ByteArrayInputStream(data), false, true)).isEqualTo(inPlace);
    }
  }

  @Test
  void everyTruncationEndsAlike() throws IOException {
    byte[] data = Files.readAllBytes(Fixtures.perfview(Fixtures.CHECKPOINTS));
    assertTimeoutPreemptively(
        Duration.ofSeconds(60),
        () -> {
          for (int len = 0; len < data.length; len++) {
            byte[] prefix = Arrays.copyOf(data, len);
            assertSame(prefix, false);
            assertSame(prefix, true);
          }
        });
  }

  @Test
  void seededCorruptionsEndAlike() throws IOException {
    byte[][] inputs = {golden("runtime-all.nettrace"), SyntheticTraceTest.synthesise()};
    SplittableRandom random = new SplittableRandom(20261127);
    assertTimeoutPreemptively(
        Duration.ofSeconds(60),
        () -> {
          for (int round = 0; round < 600; round++) {
            byte[] data = inputs[round % inputs.length].clone();
            for (int k = 1 + random.nextInt(4); k > 0; k--) {
              int at = random.nextInt(data.length);
              data[at] = (byte) (data[at] ^ (1 << random.nextInt(8)));
            }
            assertSame(data, round % 2 == 0);
          }
        });
  }

  /** A stream that hands over at most a random number of bytes per read, as a socket does. */
  private static InputStream inPieces(byte[] data, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    return new ByteArrayInputStream(data) {
      @Override
      public synchronized int read(byte[] b, int off, int len) {
        return super.read(b, off, Math.min(len, 1 + random.nextInt(150_000)));
      }
    };
  }

  @Test
  void bytesInOddPiecesGiveTheSameEvents() throws IOException {
    byte[] data = golden("runtime-all.nettrace");
    List<String> whole = outcome(new ByteArrayInputStream(data), false, false);
    for (long seed = 1; seed <= 5; seed++) {
      assertThat(outcome(inPieces(data, seed), false, true)).isEqualTo(whole);
      assertThat(outcome(inPieces(data, seed), false, false)).isEqualTo(whole);
    }
  }

  @Test
  void closingEarlyStopsTheParsingThread() throws IOException {
    byte[] data = golden("runtime-all.nettrace");
    // Readers of other tests may still be ending theirs: only more than before would be this one's.
    long before = parsingThreads();
    assertTimeoutPreemptively(
        Duration.ofSeconds(20),
        () -> {
          for (int i = 0; i < 50; i++) {
            try (NetTraceReader r =
                NetTraceReader.openParsedAhead(new ByteArrayInputStream(data), false)) {
              for (int k = 0; k < i * 10 && r.next() != null; k++) {
                // Some events, then close.
              }
            }
          }
        });
    // Each reader's thread ends at its next hand-over once closed.
    long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
    while (parsingThreads() > before && System.nanoTime() < deadline) {
      Thread.onSpinWait();
    }
    assertThat(parsingThreads()).isLessThanOrEqualTo(before);
  }

  private static long parsingThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().equals("clrscope-nettrace-parser") && t.isAlive())
        .count();
  }
}
