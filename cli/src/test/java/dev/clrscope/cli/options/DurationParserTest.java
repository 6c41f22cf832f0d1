package dev.clrscope.cli.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.TypeConversionException;

class DurationParserTest {
  private static Duration parse(String s) {
    return DurationParser.parse(s);
  }

  @Test
  void clrscopesShortForms() {
    assertThat(parse("30s")).isEqualTo(Duration.ofSeconds(30));
    assertThat(parse("1m30s")).isEqualTo(Duration.ofSeconds(90));
    assertThat(parse("2h")).isEqualTo(Duration.ofHours(2));
    assertThat(parse("500ms")).isEqualTo(Duration.ofMillis(500));
    assertThat(parse("1.5s")).isEqualTo(Duration.ofMillis(1500));
    assertThat(parse("1d")).isEqualTo(Duration.ofDays(1));
    assertThat(parse(" 2M ")).isEqualTo(Duration.ofMinutes(2));
  }

  @Test
  void theTimeSpanFormsOfTheDotnetTools() {
    assertThat(parse("00:00:05")).isEqualTo(Duration.ofSeconds(5));
    assertThat(parse("01:30")).isEqualTo(Duration.ofMinutes(90));
    assertThat(parse("1.02:03:04")).isEqualTo(Duration.parse("P1DT2H3M4S"));
    assertThat(parse("1.02:03")).isEqualTo(Duration.parse("P1DT2H3M"));
    assertThat(parse("00:00:00:05")).isEqualTo(Duration.ofSeconds(5));
    assertThat(parse("2:00:00:00")).isEqualTo(Duration.ofDays(2));
    assertThat(parse("00:00:01.5")).isEqualTo(Duration.ofMillis(1500));
    assertThat(parse("00:00:00.0015")).isEqualTo(Duration.ofMillis(2));
  }

  @Test
  void aBareNumberNamesBothReadings() {
    assertThatThrownBy(() -> parse("3"))
        .isInstanceOf(TypeConversionException.class)
        .hasMessage(
            "'3' has no unit: write 3s for seconds (clrscope's reading before), or 3.00:00:00 or"
                + " 3d for days (dotnet-trace's reading)");
  }

  @Test
  void outOfRangeAndMalformedValuesAreUsageErrors() {
    for (String v :
        new String[] {
          "9999999999999999999999d",
          "99999999999999:0:0:0",
          "10675200d",
          "9223372036854775807s",
          "25:00:00",
          "00:60",
          "00:00:61",
          "0s",
          "00:00:00",
          "-5s",
          "",
          "abc",
          "5x",
          "1:2:3:4:5",
          "1e309s"
        }) {
      assertThatThrownBy(() -> parse(v)).as(v).isInstanceOf(TypeConversionException.class);
    }
    assertThat(parse("10675199d")).isEqualTo(Duration.ofDays(10_675_199));
    assertThatThrownBy(() -> parse("99999999999999:0:0:0"))
        .hasMessage("'99999999999999:0:0:0' is too long: a duration is at most 10675199 days");
  }
}
