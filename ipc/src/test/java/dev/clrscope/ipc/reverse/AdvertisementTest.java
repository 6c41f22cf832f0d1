package dev.clrscope.ipc.reverse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clrscope.ipc.MalformedMessageException;
import dev.clrscope.ipc.testing.Hex;
import java.util.Arrays;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class AdvertisementTest {
  static final String ADVERT_HEX =
      "41 44 56 52 5f 56 31 00" // "ADVR_V1\0"
          + " 23 0d 3c e1 bc cc 12 4e 93 1b d9 cc 2e ee 27 e4" // cookie
          + " 39 30 00 00 00 00 00 00" // pid 12345
          + " 00 00";

  @Test
  void decodesTheThirtyFourBytes() {
    byte[] b = Hex.bytes(ADVERT_HEX);
    assertThat(b).hasSize(34);
    assertThat(Advertisement.decode(b))
        .isEqualTo(
            new Advertisement(UUID.fromString("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4"), 12345));
  }

  @Test
  void rejectsWrongMagic() {
    byte[] b = Hex.bytes(ADVERT_HEX);
    b[6] = '2';
    assertThatThrownBy(() -> Advertisement.decode(b))
        .isInstanceOf(MalformedMessageException.class)
        .hasMessageContaining("at offset 0")
        .hasMessageContaining("ADVR_V1");
    byte[] ipc = Hex.bytes(ADVERT_HEX);
    System.arraycopy("DOTNET_I".getBytes(java.nio.charset.StandardCharsets.US_ASCII), 0, ipc, 0, 8);
    assertThatThrownBy(() -> Advertisement.decode(ipc))
        .isInstanceOf(MalformedMessageException.class);
  }

  @Test
  void rejectsWrongSize() {
    byte[] b = Hex.bytes(ADVERT_HEX);
    assertThatThrownBy(() -> Advertisement.decode(Arrays.copyOf(b, 33)))
        .isInstanceOf(MalformedMessageException.class)
        .hasMessageContaining("34-byte");
    assertThatThrownBy(() -> Advertisement.decode(Arrays.copyOf(b, 35)))
        .isInstanceOf(MalformedMessageException.class)
        .hasMessageContaining("34-byte");
    assertThatThrownBy(() -> Advertisement.decode(new byte[0]))
        .isInstanceOf(MalformedMessageException.class);
  }
}
