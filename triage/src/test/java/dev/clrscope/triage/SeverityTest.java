package dev.clrscope.triage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class SeverityTest {
  @Test
  void parsedInAnyCaseAndOrderedMostSevereFirst() {
    assertThat(Severity.parse(" Error ")).isEqualTo(Severity.ERROR);
    assertThat(Severity.CRITICAL.atLeast(Severity.ERROR)).isTrue();
    assertThat(Severity.WARNING.atLeast(Severity.ERROR)).isFalse();
    assertThat(Severity.INFO.atLeast(Severity.INFO)).isTrue();
    assertThatThrownBy(() -> Severity.parse("fatal"))
        .hasMessage("no severity 'fatal': give critical, error, warning or info");
  }
}
