package dev.clrscope.cli.dacprocess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clrscope.cli.render.Terminal;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The wire between the front and the DAC process: every body round-trips, and every cut and
 * thousands of corruptions of a stream of frames end in a frame, the end, or {@link Wire.Broken},
 * never another exception or a frame longer than the limit.
 */
class WireTest {
  private static byte[] frames() throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    Wire.write(
        out,
        Wire.Kind.RUN,
        new Wire.Run(
                List.of("analyze", "app.core", "-c", "dumpheap -stat", "é"),
                new Terminal.Facts(true, new Terminal.Size(true, 40, 120), true),
                true)
            .body());
    Wire.write(
        out, Wire.Kind.OUT, "Total 3 objects\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    Wire.write(out, Wire.Kind.TARGET, new Wire.Target(1234, "process 1234").body());
    Wire.write(out, Wire.Kind.ASK, new Wire.Ask(true, "> ").body());
    Wire.write(out, Wire.Kind.LINE, new Wire.Line("gcroot 0x7f00", 80).body());
    Wire.write(out, Wire.Kind.NAME, Wire.text("clrscope analyze"));
    Wire.write(out, Wire.Kind.DONE, new byte[0]);
    Wire.write(out, Wire.Kind.CANCELLABLE, Wire.flag(true));
    Wire.write(out, Wire.Kind.END, Wire.code(70));
    return out.toByteArray();
  }

  @Test
  void everyBodyRoundTrips() throws IOException {
    var in = Wire.reading(new ByteArrayInputStream(frames()));
    Wire.Run run = Wire.Run.of(Wire.read(in).body());
    assertThat(run.words()).containsExactly("analyze", "app.core", "-c", "dumpheap -stat", "é");
    assertThat(run.terminal())
        .isEqualTo(new Terminal.Facts(true, new Terminal.Size(true, 40, 120), true));
    assertThat(run.resumed()).isTrue();
    assertThat(new String(Wire.read(in).body(), java.nio.charset.StandardCharsets.UTF_8))
        .isEqualTo("Total 3 objects\n");
    assertThat(Wire.Target.of(Wire.read(in).body()))
        .isEqualTo(new Wire.Target(1234, "process 1234"));
    assertThat(Wire.Ask.of(Wire.read(in).body())).isEqualTo(new Wire.Ask(true, "> "));
    assertThat(Wire.Line.of(Wire.read(in).body())).isEqualTo(new Wire.Line("gcroot 0x7f00", 80));
    assertThat(Wire.read(in).text()).isEqualTo("clrscope analyze");
    assertThat(Wire.read(in).kind()).isEqualTo(Wire.Kind.DONE);
    assertThat(Wire.flag(Wire.read(in).body())).isTrue();
    assertThat(Wire.code(Wire.read(in).body())).isEqualTo(70);
    assertThat(Wire.read(in)).isNull();
  }

  @Test
  void aFrameOverTheLimitOrOfNoKindIsBroken() {
    byte[] tooLong = {16, 0x00, 0x10, 0x00, 0x01};
    assertThatThrownBy(() -> Wire.read(Wire.reading(new ByteArrayInputStream(tooLong))))
        .isInstanceOf(Wire.Broken.class)
        .hasMessage("a OUT frame of 1048577 bytes");
    byte[] negative = {16, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff};
    assertThatThrownBy(() -> Wire.read(Wire.reading(new ByteArrayInputStream(negative))))
        .isInstanceOf(Wire.Broken.class)
        .hasMessage("a OUT frame of 4294967295 bytes");
    byte[] crashBanner = "#\n# A fatal error".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    assertThatThrownBy(() -> Wire.read(Wire.reading(new ByteArrayInputStream(crashBanner))))
        .isInstanceOf(Wire.Broken.class)
        .hasMessage("a frame of unknown kind 35");
  }

  @Test
  void everyCutAndCorruptionEndsInAFrameTheEndOrBroken() throws IOException {
    byte[] good = frames();
    for (int at = 0; at < good.length; at++) {
      readAll(Arrays.copyOf(good, at));
    }
    Random random = new Random(31);
    for (int i = 0; i < 5000; i++) {
      byte[] bad = good.clone();
      for (int k = 1 + random.nextInt(6); k > 0; k--) {
        bad[random.nextInt(bad.length)] = (byte) random.nextInt(256);
      }
      readAll(bad);
    }
  }

  /** Reads frames and their bodies until the end or a broken one: no other exception. */
  private static void readAll(byte[] stream) throws IOException {
    var in = Wire.reading(new ByteArrayInputStream(stream));
    try {
      for (Wire.Frame f = Wire.read(in); f != null; f = Wire.read(in)) {
        assertThat(f.body().length).isLessThanOrEqualTo(Wire.MAX_BODY);
        switch (f.kind()) {
          case RUN -> Wire.Run.of(f.body());
          case TARGET -> Wire.Target.of(f.body());
          case ASK -> Wire.Ask.of(f.body());
          case LINE -> Wire.Line.of(f.body());
          case NAME -> f.text();
          case END -> Wire.code(f.body());
          default -> {}
        }
      }
    } catch (Wire.Broken expected) {
      // A clean refusal.
    }
  }
}
