package dev.clrscope.cli.options;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clrscope.cli.CliRun;
import org.junit.jupiter.api.Test;

/**
 * Numbers as a user types them: ASCII digits only, a pid with no sign or leading zero and within
 * range, other scripts' digits and NaN refused, and a number out of range said as it was written.
 */
class NumbersTest {
  private static String firstLine(CliRun r) {
    return r.err().lines().findFirst().orElseThrow();
  }

  @Test
  void aPidIsDigitsWithoutSignOrLeadingZeroWithinRange() {
    for (String pid : new String[] {"+42", "042", "\u0664\u0662", "0", "-3", "99999999999"}) {
      CliRun r = CliRun.of("info", "-p", pid);
      assertThat(r.exit()).as(pid).isEqualTo(2);
      assertThat(firstLine(r))
          .as(pid)
          .isEqualTo(
              "clrscope info: Invalid value for option '--process-id': a process id is a number"
                  + " from 1 to 2147483647 in digits 0-9, got '"
                  + pid
                  + "'");
    }
    CliRun serve = CliRun.of("serve", "-p", "99999999999", "--duration", "1s");
    assertThat(serve.exit()).isEqualTo(2);
    assertThat(firstLine(serve)).contains("a process id is a number from 1 to 2147483647");
  }

  @Test
  void otherNumbersAreAsciiFiniteAndSaidAsWritten() {
    CliRun digits = CliRun.of("counters", "monitor", "-p", "1", "--maxHistograms", "\u0661\u0660");
    assertThat(digits.exit()).isEqualTo(2);
    assertThat(firstLine(digits)).contains("is not a whole number (digits 0-9)");
    CliRun refresh = CliRun.of("counters", "monitor", "-p", "1", "--refresh-interval", "1e9");
    assertThat(refresh.exit()).isEqualTo(2);
    assertThat(firstLine(refresh))
        .isEqualTo(
            "clrscope counters monitor: --refresh-interval takes seconds, more than 0 and at most"
                + " 86400 (a day), got 1000000000");
    CliRun nan = CliRun.of("dump-heap", "dominators", "--file", "x.gcdump", "--min-percent", "NaN");
    assertThat(nan.exit()).isEqualTo(2);
    assertThat(firstLine(nan)).contains("'NaN' is not a number (digits 0-9, like 2.5)");
    CliRun discovery = CliRun.of("serve", "--discovery-interval", "1e9", "-p", "1");
    assertThat(discovery.exit()).isEqualTo(2);
    assertThat(firstLine(discovery))
        .isEqualTo(
            "clrscope serve: --discovery-interval takes seconds from 0.1 to 3600, got 1000000000");
  }
}
