package dev.clrscope.cli.render;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class HexAddressesTest {
  private static final long[] FRAMES = {0x7f3ad2cd204dL, 0, 0xf, -1L, 0x10};

  @Test
  void jsonIsWrittenFromTheNumbersAsTheWordsRead() {
    HexAddresses a = new HexAddresses(FRAMES);
    assertThat(a).containsExactly("0x7f3ad2cd204d", "0x0", "0xf", "0xffffffffffffffff", "0x10");
    assertThat(JsonText.of(a))
        .isEqualTo(JsonText.of(List.copyOf(a)))
        .isEqualTo("[\"0x7f3ad2cd204d\",\"0x0\",\"0xf\",\"0xffffffffffffffff\",\"0x10\"]");
    assertThat(JsonText.of(new HexAddresses(new long[0]))).isEqualTo("[]");
  }

  @Test
  void csvAndTableShowThemAsWords() {
    assertThat(Unit.WORDS.csv(new HexAddresses(new long[] {1, 2}))).isEqualTo("0x1 0x2");
    assertThat(Unit.WORDS.text(new HexAddresses(new long[] {1, 2}))).isEqualTo("0x1,0x2");
  }
}
