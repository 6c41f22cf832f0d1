package dev.clrscope.ipc.codec;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clrscope.ipc.testing.Hex;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class PayloadWriterTest {
  private static final UUID GUID = UUID.fromString("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4");

  private static String hex(PayloadWriter w) {
    return Hex.of(w.toByteArray());
  }

  @Test
  void integersAreLittleEndian() {
    assertThat(hex(new PayloadWriter().u8(0xAB))).isEqualTo("ab");
    assertThat(hex(new PayloadWriter().u8(0x1FF))).isEqualTo("ff");
    assertThat(hex(new PayloadWriter().u16(0xABCD))).isEqualTo("cd ab");
    assertThat(hex(new PayloadWriter().u32(0x12345678))).isEqualTo("78 56 34 12");
    assertThat(hex(new PayloadWriter().u32(0x80131385))).isEqualTo("85 13 13 80");
    assertThat(hex(new PayloadWriter().u32(-1))).isEqualTo("ff ff ff ff");
    assertThat(hex(new PayloadWriter().u64(0x0102030405060708L)))
        .isEqualTo("08 07 06 05 04 03 02 01");
    assertThat(hex(new PayloadWriter().u64(-2L))).isEqualTo("fe ff ff ff ff ff ff ff");
  }

  @Test
  void booleansAreOneByte() {
    assertThat(hex(new PayloadWriter().bool(true).bool(false))).isEqualTo("01 00");
  }

  @Test
  void nullStringIsCountZero() {
    assertThat(hex(new PayloadWriter().string(null))).isEqualTo("00 00 00 00");
  }

  @Test
  void emptyStringIsCountOneAndNul() {
    assertThat(hex(new PayloadWriter().string(""))).isEqualTo("01 00 00 00 00 00");
  }

  @Test
  void asciiStringCountsItsNul() {
    assertThat(hex(new PayloadWriter().string("Hi"))).isEqualTo("03 00 00 00 48 00 69 00 00 00");
  }

  @Test
  void nonAsciiStringCountsUtf16CodeUnits() {
    // é (U+00E9), € (U+20AC), 😀 (U+1F600 = surrogates D83D DE00): 4 units + NUL.
    assertThat(hex(new PayloadWriter().string("é€\uD83D\uDE00")))
        .isEqualTo("05 00 00 00 e9 00 ac 20 3d d8 00 de 00 00");
  }

  @Test
  void guidUsesDotnetLayout() {
    assertThat(hex(new PayloadWriter().guid(GUID)))
        .isEqualTo("23 0d 3c e1 bc cc 12 4e 93 1b d9 cc 2e ee 27 e4");
    assertThat(Hex.of(GuidLayout.toBytes(GUID)))
        .isEqualTo("23 0d 3c e1 bc cc 12 4e 93 1b d9 cc 2e ee 27 e4");
  }

  @Test
  void guidLayoutRoundTrips() {
    byte[] b = Hex.bytes("ff ee 23 0d 3c e1 bc cc 12 4e 93 1b d9 cc 2e ee 27 e4");
    assertThat(GuidLayout.fromBytes(b, 2)).isEqualTo(GUID);
    UUID high = new UUID(0xFFFFFFFFFFFFFFFFL, 0x8000000000000001L);
    assertThat(GuidLayout.fromBytes(GuidLayout.toBytes(high), 0)).isEqualTo(high);
  }

  @Test
  void rawBytesAndChainingAppendInOrder() {
    byte[] b =
        new PayloadWriter()
            .u8(1)
            .u16(2)
            .u32(3)
            .bytes(Hex.bytes("aa bb"))
            .u64(4)
            .string("a")
            .toByteArray();
    assertThat(Hex.of(b))
        .isEqualTo("01 02 00 03 00 00 00 aa bb 04 00 00 00 00 00 00 00 02 00 00 00 61 00 00 00");
  }

  @Test
  void emptyWriterIsEmpty() {
    assertThat(new PayloadWriter().toByteArray()).isEmpty();
  }
}
