package dev.clrscope.cli.commands.counters;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CounterTextTest {
  @Test
  void abbreviatedNumbersKeepSmallValuesAndShortenLargeOnes() {
    assertThat(CounterText.abbreviated(999.5)).isEqualTo("999.5");
    assertThat(CounterText.abbreviated(1234.0)).isEqualTo("1.23K");
    assertThat(CounterText.abbreviated(573_720_000.0)).isEqualTo("573.72M");
    assertThat(CounterText.abbreviated(999_999.0)).isEqualTo("1M");
    assertThat(CounterText.abbreviated(-4_100_000_000.0)).isEqualTo("-4.1G");
    assertThat(CounterText.abbreviated(2e15)).isEqualTo("2000T");
    assertThat(CounterText.abbreviated(null)).isEqualTo("-");
  }
}
