package dev.clrscope.nettrace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.clrscope.nettrace.events.EventFields;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.Arrays;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * Truncation at every offset and seeded random corruption: each read ends in a complete result, a
 * {@link NetTraceFormatException}, or (lenient) a partial result with a stop reason; never another
 * exception type, an out-of-memory error or a hang.
 */
class CorruptionTest {

  /** Outcome counters, so each test can assert it exercised every path. */
  static final class Outcomes {
    int complete;
    int formatErrors;
    int partial;
  }

  /** Reads everything and decodes every payload; format errors are the only acceptable failure. */
  static void readFully(byte[] data, boolean lenient, Outcomes o) {
    try (NetTraceReader r = NetTraceReader.open(new ByteArrayInputStream(data), lenient)) {
      TraceEvent e;
      while ((e = r.next()) != null) {
        EventFields.of(e);
        e.stack().depth();
      }
      if (r.stopReason().isPresent()) {
        assertThat(r.stopReason().get().getMessage()).contains("offset");
        o.partial++;
      } else {
        o.complete++;
      }
    } catch (NetTraceFormatException ex) {
      assertThat(ex.getMessage()).startsWith("at offset ");
      assertThat(ex.offset()).isBetween(0L, (long) data.length);
      o.formatErrors++;
    }
  }

  @Test
  void everyTruncationOfSmallGoldenFileFailsCleanly() throws IOException {
    byte[] golden = Files.readAllBytes(Fixtures.perfview(Fixtures.CHECKPOINTS));
    Outcomes strict = new Outcomes();
    Outcomes lenient = new Outcomes();
    assertTimeoutPreemptively(
        Duration.ofSeconds(20),
        () -> {
          for (int len = 0; len < golden.length; len++) {
            byte[] prefix = Arrays.copyOf(golden, len);
            readFully(prefix, false, strict);
            readFully(prefix, true, lenient);
          }
        });
    assertThat(strict.formatErrors).isEqualTo(golden.length);
    assertThat(strict.complete).isZero();
    // Lenient mode cannot recover a broken header, but reports partial results after it.
    assertThat(lenient.partial).isPositive();
    assertThat(lenient.partial + lenient.formatErrors).isEqualTo(golden.length);
  }

  @Test
  void lenientModeKeepsEventsOfCompleteBlocks() throws IOException {
    byte[] golden = Files.readAllBytes(Fixtures.perfview(Fixtures.ARRAY_TYPES));
    long full = SyntheticTraceTest.readAll(golden).size();
    long previous = 0;
    for (int cut = golden.length / 8; cut < golden.length; cut += golden.length / 8) {
      try (NetTraceReader r =
          NetTraceReader.open(new ByteArrayInputStream(Arrays.copyOf(golden, cut)), true)) {
        long n = 0;
        while (r.next() != null) {
          n++;
        }
        assertThat(r.stopReason()).isPresent();
        assertThat(r.stopReason().get().offset()).isLessThanOrEqualTo(cut);
        assertThat(n).isBetween(previous, full);
        previous = n;
      }
    }
    assertThat(previous).isPositive();
    assertThatThrownBy(() -> SyntheticTraceTest.readAll(Arrays.copyOf(golden, golden.length - 1)))
        .isInstanceOf(NetTraceFormatException.class)
        .hasMessageContaining("NullReference");
  }

  @Test
  void everyTruncationOfSyntheticTraceFailsCleanly() {
    byte[] data = SyntheticTraceTest.synthesise();
    Outcomes o = new Outcomes();
    assertTimeoutPreemptively(
        Duration.ofSeconds(20),
        () -> {
          for (int len = 0; len < data.length; len++) {
            readFully(Arrays.copyOf(data, len), false, o);
          }
        });
    assertThat(o.formatErrors).isEqualTo(data.length);
  }

  @Test
  void seededRandomCorruptionsFailCleanly() throws IOException {
    byte[][] inputs = {
      Files.readAllBytes(Fixtures.perfview(Fixtures.CHECKPOINTS)), SyntheticTraceTest.synthesise()
    };
    SplittableRandom random = new SplittableRandom(20240601);
    Outcomes o = new Outcomes();
    assertTimeoutPreemptively(
        Duration.ofSeconds(40),
        () -> {
          for (int round = 0; round < 4000; round++) {
            byte[] input = inputs[round % inputs.length];
            byte[] data = input.clone();
            int flips = 1 + random.nextInt(4);
            for (int k = 0; k < flips; k++) {
              int at = random.nextInt(data.length);
              data[at] =
                  random.nextBoolean()
                      ? (byte) random.nextInt(256)
                      : (byte) (data[at] ^ (1 << random.nextInt(8)));
            }
            readFully(data, round % 3 == 0, o);
          }
        });
    assertThat(o.formatErrors).isPositive();
    assertThat(o.complete).isPositive();
    assertThat(o.complete + o.formatErrors + o.partial).isEqualTo(4000);
  }

  @Test
  void hugeDeclaredLengthsNeverAllocateThem() {
    byte[] data = SyntheticTraceTest.synthesise();
    // Find the first EventBlock size field and claim 60 MB.
    int at =
        indexOf(data, "EventBlock".getBytes(java.nio.charset.StandardCharsets.US_ASCII))
            + "EventBlock".length()
            + 1;
    byte[] bad = data.clone();
    bad[at] = 0;
    bad[at + 1] = 0;
    bad[at + 2] = (byte) 0xC0;
    bad[at + 3] = 0x03;
    assertThatThrownBy(() -> SyntheticTraceTest.readAll(bad))
        .isInstanceOf(NetTraceFormatException.class)
        .hasMessageContaining("EventBlock")
        .hasMessageContaining("declared");
  }

  @Test
  void rejectsWrongMagic() {
    assertThatThrownBy(
            () ->
                SyntheticTraceTest.readAll(
                    "NotATrace-at-all-really".getBytes(java.nio.charset.StandardCharsets.US_ASCII)))
        .isInstanceOf(NetTraceFormatException.class)
        .hasMessageContaining("at offset 0")
        .hasMessageContaining("magic");
  }

  static int indexOf(byte[] data, byte[] needle) {
    outer:
    for (int i = 0; i + needle.length <= data.length; i++) {
      for (int k = 0; k < needle.length; k++) {
        if (data[i + k] != needle[k]) {
          continue outer;
        }
      }
      return i;
    }
    throw new AssertionError("not found");
  }
}
