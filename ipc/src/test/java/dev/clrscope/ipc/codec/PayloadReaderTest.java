package dev.clrscope.ipc.codec;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.clrscope.ipc.MalformedMessageException;
import dev.clrscope.ipc.testing.Hex;
import java.util.UUID;
import java.util.function.Consumer;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

class PayloadReaderTest {

  private static void assertMalformedAt(ThrowingCallable call, long offset) {
    assertThatThrownBy(call)
        .isInstanceOf(MalformedMessageException.class)
        .hasMessageStartingWith("malformed IPC message at offset " + offset + ":")
        .extracting(e -> ((MalformedMessageException) e).offset())
        .isEqualTo(offset);
  }

  @Test
  void readsLittleEndianIntegers() {
    PayloadReader r =
        new PayloadReader(
            Hex.bytes("ab cd ab 78 56 34 12 08 07 06 05 04 03 02 01 ff ff ff ff 02 00"));
    assertThat(r.u8("a")).isEqualTo(0xAB);
    assertThat(r.u16("b")).isEqualTo(0xABCD);
    assertThat(r.u32("c")).isEqualTo(0x12345678);
    assertThat(r.u64("d")).isEqualTo(0x0102030405060708L);
    assertThat(r.u32("e")).isEqualTo(-1);
    assertThat(r.bool("f")).isTrue();
    assertThat(r.bool("g")).isFalse();
    assertThat(r.remaining()).isZero();
  }

  @Test
  void readsHighBitValuesUnsignedWhereTheTypeAllows() {
    PayloadReader r = new PayloadReader(Hex.bytes("ff ff ff ff ff ff ff ff ff ff ff"));
    assertThat(r.u8("a")).isEqualTo(255);
    assertThat(r.u16("b")).isEqualTo(65535);
    assertThat(r.u64("c")).isEqualTo(-1L);
  }

  @Test
  void readsGuidInDotnetLayout() {
    PayloadReader r =
        new PayloadReader(Hex.bytes("23 0d 3c e1 bc cc 12 4e 93 1b d9 cc 2e ee 27 e4"));
    assertThat(r.guid("g")).isEqualTo(UUID.fromString("e13c0d23-ccbc-4e12-931b-d9cc2eee27e4"));
  }

  @Test
  void readsStrings() {
    PayloadReader r =
        new PayloadReader(
            Hex.concat(
                Hex.bytes("00 00 00 00"),
                Hex.bytes("01 00 00 00 00 00"),
                Hex.bytes("03 00 00 00 48 00 69 00 00 00"),
                Hex.bytes("05 00 00 00 e9 00 ac 20 3d d8 00 de 00 00")));
    assertThat(r.string("null")).isNull();
    assertThat(r.string("empty")).isEmpty();
    assertThat(r.string("ascii")).isEqualTo("Hi");
    assertThat(r.string("non-ascii")).isEqualTo("é€\uD83D\uDE00");
    assertThat(r.remaining()).isZero();
  }

  @Test
  void stringWithoutNulKeepsAllUnits() {
    PayloadReader r = new PayloadReader(Hex.bytes("02 00 00 00 48 00 69 00 ff"));
    assertThat(r.string("s")).isEqualTo("Hi");
    assertThat(r.remaining()).isEqualTo(1);
  }

  @Test
  void writerOutputReadsBack() {
    UUID g = UUID.randomUUID();
    byte[] b = new PayloadWriter().u16(7).string("x=y").guid(g).string(null).u64(99).toByteArray();
    PayloadReader r = new PayloadReader(b);
    assertThat(r.u16("a")).isEqualTo(7);
    assertThat(r.string("b")).isEqualTo("x=y");
    assertThat(r.guid("c")).isEqualTo(g);
    assertThat(r.string("d")).isNull();
    assertThat(r.u64("e")).isEqualTo(99);
  }

  @Test
  void offsetCountsFromBase() {
    PayloadReader r = new PayloadReader(new byte[10], 20);
    assertThat(r.offset()).isEqualTo(20);
    r.u32("x");
    assertThat(r.offset()).isEqualTo(24);
    assertThat(r.remaining()).isEqualTo(6);
  }

  @Test
  void everyReadPastTheEndNamesTheOffset() {
    // Three bytes, base 20: after one u8 the reader is at offset 21 with 2 bytes left.
    byte[] data = Hex.bytes("01 02 03");
    java.util.List<Consumer<PayloadReader>> reads =
        java.util.List.of(
            r -> r.u32("a u32"),
            r -> r.u64("a u64"),
            r -> r.guid("a guid"),
            r -> r.string("a string"),
            r -> r.bytes(3, "raw"));
    for (Consumer<PayloadReader> read : reads) {
      PayloadReader r = new PayloadReader(data, 20);
      r.u8("first");
      assertMalformedAt(() -> read.accept(r), 21);
    }
    PayloadReader atEnd = new PayloadReader(data, 20);
    atEnd.bytes(3, "all");
    assertMalformedAt(() -> atEnd.u8("a byte"), 23);
    assertMalformedAt(() -> atEnd.bool("a bool"), 23);
    assertMalformedAt(() -> atEnd.u16("a u16"), 23);
  }

  @Test
  void pastTheEndMessageSaysWhatWasExpectedAndWhatWasLeft() {
    PayloadReader r = new PayloadReader(Hex.bytes("01 02"), 0);
    assertThatThrownBy(() -> r.u32("the pid"))
        .hasMessage("malformed IPC message at offset 0: expected the pid (4 bytes), only 2 left");
  }

  @Test
  void failedReadDoesNotAdvance() {
    PayloadReader r = new PayloadReader(Hex.bytes("01 02"), 0);
    assertThatThrownBy(() -> r.u32("x")).isInstanceOf(MalformedMessageException.class);
    assertThat(r.u16("y")).isEqualTo(0x0201);
  }

  @Test
  void negativeByteCountIsMalformed() {
    PayloadReader r = new PayloadReader(new byte[4], 8);
    assertMalformedAt(() -> r.bytes(-1, "raw"), 8);
  }

  @Test
  void stringCountOneMoreThanRemainsIsMalformedAtTheCount() {
    // Claims 3 units (6 bytes), only 4 follow.
    PayloadReader r = new PayloadReader(Hex.bytes("aa 03 00 00 00 48 00 69 00"), 20);
    r.u8("lead");
    assertThatThrownBy(() -> r.string("the name"))
        .isInstanceOf(MalformedMessageException.class)
        .hasMessageContaining("at offset 21")
        .hasMessageContaining("claims 3 UTF-16 code units, only 4 bytes left");
  }

  @Test
  void hugeStringCountsFailWithoutAllocating() {
    for (String count : new String[] {"ff ff ff ff", "ff ff ff 7f", "00 00 00 80"}) {
      PayloadReader r = new PayloadReader(Hex.bytes(count + " 41 00 00 00"), 20);
      long units = Integer.toUnsignedLong(new PayloadReader(Hex.bytes(count)).u32("c"));
      // An attempt to allocate 2 * units bytes would end in OutOfMemoryError, not this.
      assertThatThrownBy(() -> r.string("s"))
          .isInstanceOf(MalformedMessageException.class)
          .hasMessageContaining("at offset 20")
          .hasMessageContaining("claims " + units + " UTF-16 code units, only 4 bytes left");
    }
  }

  @Test
  void truncatedStringLengthIsMalformed() {
    PayloadReader r = new PayloadReader(Hex.bytes("03 00"), 20);
    assertThatThrownBy(() -> r.string("the OS"))
        .isInstanceOf(MalformedMessageException.class)
        .hasMessageContaining("at offset 20")
        .hasMessageContaining("the OS length");
  }
}
