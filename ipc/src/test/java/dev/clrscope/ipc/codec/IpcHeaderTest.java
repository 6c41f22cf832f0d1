package dev.clrscope.ipc.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clrscope.ipc.MalformedMessageException;
import dev.clrscope.ipc.testing.Hex;
import java.util.Arrays;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class IpcHeaderTest {
  private static final String MAGIC_HEX = "44 4f 54 4e 45 54 5f 49 50 43 5f 56 31 00";

  @Test
  void encodesProcessInfoRequestHeaderExactly() {
    byte[] b = new IpcHeader(20, 0x04, 0x00, 0).encode();
    assertThat(Hex.of(b)).isEqualTo(MAGIC_HEX + " 14 00 04 00 00 00");
  }

  @Test
  void encodesSizeAndReservedLittleEndian() {
    byte[] b = new IpcHeader(0xFF34, 0xFF, 0x85, 0xBEEF).encode();
    assertThat(b).hasSize(20);
    assertThat(Hex.of(b)).isEqualTo(MAGIC_HEX + " 34 ff ff 85 ef be");
  }

  @Test
  void decodesEveryFieldAsUnsigned() {
    IpcHeader h = IpcHeader.decode(Hex.bytes(MAGIC_HEX + " ff ff ff 80 fe ff"), 0);
    assertThat(h).isEqualTo(new IpcHeader(0xFFFF, 0xFF, 0x80, 0xFFFE));
    assertThat(h.payloadSize()).isEqualTo(0xFFFF - 20);
  }

  @Test
  void decodesAtAnOffset() {
    byte[] b = Hex.concat(Hex.bytes("aa bb cc"), Hex.bytes(MAGIC_HEX + " 1c 00 ff 00 00 00"));
    IpcHeader h = IpcHeader.decode(b, 3);
    assertThat(h).isEqualTo(new IpcHeader(28, 0xFF, 0x00, 0));
    assertThat(h.payloadSize()).isEqualTo(8);
  }

  @Test
  void roundTrips() {
    IpcHeader h = new IpcHeader(1234, 0x02, 0x07, 0);
    assertThat(IpcHeader.decode(h.encode(), 0)).isEqualTo(h);
  }

  @Test
  void rejectsBadMagicAtOffsetZero() {
    byte[] b = Hex.bytes(MAGIC_HEX + " 14 00 04 00 00 00");
    b[12] = '2'; // DOTNET_IPC_V2
    assertThatThrownBy(() -> IpcHeader.decode(b, 0))
        .isInstanceOf(MalformedMessageException.class)
        .hasMessageContaining("at offset 0")
        .hasMessageContaining("DOTNET_IPC_V1")
        .extracting(e -> ((MalformedMessageException) e).offset())
        .isEqualTo(0L);
  }

  @Test
  void rejectsMagicWithoutItsNul() {
    byte[] b = Hex.bytes(MAGIC_HEX + " 14 00 04 00 00 00");
    b[13] = ' ';
    assertThatThrownBy(() -> IpcHeader.decode(b, 0)).isInstanceOf(MalformedMessageException.class);
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 19})
  void rejectsSizeSmallerThanHeaderAtOffset14(int size) {
    byte[] b = Hex.concat(Hex.bytes(MAGIC_HEX), Hex.u16(size), Hex.bytes("ff 00 00 00"));
    assertThatThrownBy(() -> IpcHeader.decode(b, 0))
        .isInstanceOf(MalformedMessageException.class)
        .hasMessageContaining("at offset 14")
        .hasMessageContaining("size " + size)
        .extracting(e -> ((MalformedMessageException) e).offset())
        .isEqualTo(14L);
  }

  @Test
  void rejectsEveryShortBufferNamingWhereTheBytesEnd() {
    byte[] full = Hex.bytes(MAGIC_HEX + " 14 00 04 00 00 00");
    for (int len = 0; len < 20; len++) {
      byte[] shortBuffer = Arrays.copyOf(full, len);
      int expected = len;
      assertThatThrownBy(() -> IpcHeader.decode(shortBuffer, 0))
          .as("length %d", len)
          .isInstanceOf(MalformedMessageException.class)
          .hasMessageContaining("at offset " + expected)
          .hasMessageContaining("expected a 20-byte header, got " + expected);
    }
  }

  @Test
  void rejectsShortBufferAfterAnOffset() {
    byte[] b = new byte[25];
    assertThatThrownBy(() -> IpcHeader.decode(b, 10))
        .isInstanceOf(MalformedMessageException.class)
        .hasMessageContaining("got 15");
  }

  @Test
  void constructorRejectsOutOfRangeFields() {
    assertThatThrownBy(() -> new IpcHeader(19, 4, 0, 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new IpcHeader(0x10000, 4, 0, 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new IpcHeader(20, 0x100, 0, 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new IpcHeader(20, 4, -1, 0))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new IpcHeader(20, 4, 0, 0x10000))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(new IpcHeader(0xFFFF, 0xFF, 0xFF, 0xFFFF).size()).isEqualTo(65535);
  }
}
