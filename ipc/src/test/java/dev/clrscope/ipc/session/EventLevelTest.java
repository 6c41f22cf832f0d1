package dev.clrscope.ipc.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class EventLevelTest {
  @Test
  void numbersAreTheWireValuesAndLargerOnesMeanVerbose() {
    for (EventLevel l : EventLevel.values()) {
      assertThat(EventLevel.parse(Integer.toString(l.value()))).isEqualTo(l);
      assertThat(l.value()).isEqualTo(l.ordinal());
    }
    assertThat(EventLevel.parse("01")).isEqualTo(EventLevel.CRITICAL);
    assertThat(EventLevel.parse("6")).isEqualTo(EventLevel.VERBOSE);
    assertThat(EventLevel.parse("99999999999999999999")).isEqualTo(EventLevel.VERBOSE);
  }

  @Test
  void namesInAnyCase() {
    assertThat(EventLevel.parse(" Informational ")).isEqualTo(EventLevel.INFORMATIONAL);
    assertThat(EventLevel.parse("INFO")).isEqualTo(EventLevel.INFORMATIONAL);
    assertThat(EventLevel.parse("LogAlways")).isEqualTo(EventLevel.LOG_ALWAYS);
    assertThat(EventLevel.parse("warning")).isEqualTo(EventLevel.WARNING);
  }

  @Test
  void anythingElseSaysWhatIsAccepted() {
    assertThatThrownBy(() -> EventLevel.parse("loud"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "unknown level 'loud': use 0-5 or logalways, critical, error, warning, informational,"
                + " verbose");
    assertThatThrownBy(() -> EventLevel.parse("-1")).isInstanceOf(IllegalArgumentException.class);
  }
}
