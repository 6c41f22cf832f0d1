package dev.clrscope.cli.commands.analyze;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class SosArgsTest {
  private static final SosArgs.Spec DUMPHEAP =
      SosArgs.Spec.of(Set.of("-stat", "-short"), Set.of("-type", "-min"), 0, 1);

  private static SosArgs parse(String line) {
    List<String> words = SosArgs.split(line);
    return SosArgs.parse("dumpheap", "dumpheap [-stat]", words, DUMPHEAP);
  }

  @Test
  void wordsSplitOnSpacesAndQuotesKeepThem() {
    assertThat(SosArgs.split("  dumpheap   -type \"Dictionary<System.String, System.Int32>\" "))
        .containsExactly("dumpheap", "-type", "Dictionary<System.String, System.Int32>");
    assertThat(SosArgs.split("")).isEmpty();
    assertThat(SosArgs.split("a \"\" b")).containsExactly("a", "", "b");
    assertThatThrownBy(() -> SosArgs.split("dumpheap -type \"open"))
        .isInstanceOf(SosUsageException.class)
        .hasMessage("a quote is not closed: dumpheap -type \"open");
  }

  @Test
  void flagsAndOptionsInAnyCaseAndOrder() {
    SosArgs a = parse("-Type Widget -STAT -min 0x10 7f00");
    assertThat(a.has("-stat")).isTrue();
    assertThat(a.has("-short")).isFalse();
    assertThat(a.value("-type")).isEqualTo("Widget");
    assertThat(a.numberOption("-min", 0)).isEqualTo(16);
    assertThat(a.address(0)).isEqualTo(0x7f00);
    assertThat(parse("").numberOption("-min", 5)).isEqualTo(5);
  }

  @Test
  void mistakesSayWhatAndHowTheCommandIsUsed() {
    assertThatThrownBy(() -> parse("-foo"))
        .isInstanceOf(SosUsageException.class)
        .hasMessage("dumpheap: unknown option -foo (usage: dumpheap [-stat])");
    assertThatThrownBy(() -> parse("-type"))
        .hasMessage("dumpheap: -type needs a value (usage: dumpheap [-stat])");
    assertThatThrownBy(() -> parse("a b"))
        .hasMessage("dumpheap: unexpected b (usage: dumpheap [-stat])");
    assertThatThrownBy(() -> parse("-min -3").numberOption("-min", 0))
        .hasMessage("dumpheap: -min takes a number (0 or more), not -3 (usage: dumpheap [-stat])");
    assertThatThrownBy(() -> parse("xyz").address(0))
        .hasMessage(
            "dumpheap: not an address: xyz (hexadecimal, with or without 0x) (usage: dumpheap"
                + " [-stat])");
    assertThatThrownBy(
            () -> SosArgs.parse("dumpobj", "dumpobj ADDR", List.of(), SosArgs.Spec.one()))
        .hasMessage("dumpobj: give an argument (usage: dumpobj ADDR)");
  }

  @Test
  void addressesAsSosTakesThem() {
    assertThat(SosArgs.parseAddress("7f12a0")).isEqualTo(0x7f12a0L);
    assertThat(SosArgs.parseAddress("0x7F12A0")).isEqualTo(0x7f12a0L);
    assertThat(SosArgs.parseAddress("00007f12`345678a0")).isEqualTo(0x7f12345678a0L);
    assertThat(SosArgs.parseAddress("ffffffffffffffff")).isEqualTo(-1L);
    assertThat(SosArgs.parseAddress("1ffffffffffffffff")).isNull();
    assertThat(SosArgs.parseAddress("0x")).isNull();
    assertThat(SosArgs.parseAddress("g1")).isNull();
    assertThat(SosArgs.number("1,000")).isEqualTo(1000);
    assertThat(SosArgs.number("0x20")).isEqualTo(32);
    assertThat(SosArgs.number("twelve")).isNull();
  }
}
