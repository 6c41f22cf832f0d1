package dev.clrscope.cli.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class DiagnosticPortSpecTest {

  @Test
  void plainPathListens() {
    assertThat(DiagnosticPortSpec.parse("/tmp/port"))
        .isEqualTo(new DiagnosticPortSpec(Path.of("/tmp/port"), false));
  }

  @Test
  void explicitModes() {
    assertThat(DiagnosticPortSpec.parse("/tmp/port,listen"))
        .isEqualTo(new DiagnosticPortSpec(Path.of("/tmp/port"), false));
    assertThat(DiagnosticPortSpec.parse("/tmp/port,connect"))
        .isEqualTo(new DiagnosticPortSpec(Path.of("/tmp/port"), true));
    assertThat(DiagnosticPortSpec.parse("  /tmp/port, connect ").connect()).isTrue();
  }

  @Test
  void runtimeSuspendTagsAreIgnored() {
    assertThat(DiagnosticPortSpec.parse("/tmp/port,suspend"))
        .isEqualTo(new DiagnosticPortSpec(Path.of("/tmp/port"), false));
    assertThat(DiagnosticPortSpec.parse("/tmp/port,nosuspend,connect"))
        .isEqualTo(new DiagnosticPortSpec(Path.of("/tmp/port"), true));
    assertThat(DiagnosticPortSpec.parse("/tmp/port,connect,suspend").connect()).isTrue();
  }

  @Test
  void relativePathIsMadeAbsolute() {
    DiagnosticPortSpec spec = DiagnosticPortSpec.parse("rel/port");
    assertThat(spec.path()).isAbsolute().isEqualTo(Path.of("rel/port").toAbsolutePath());
  }

  @ParameterizedTest
  @ValueSource(strings = {"", "   ", ",listen", ",bogus", ",connect"})
  void emptyPathIsRejected(String text) {
    assertThatThrownBy(() -> DiagnosticPortSpec.parse(text))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("--diagnostic-port needs a socket path, as PATH, PATH,listen or PATH,connect");
  }

  @Test
  void unknownTagIsRejectedNamingIt() {
    assertThatThrownBy(() -> DiagnosticPortSpec.parse("/tmp/port,lisen"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "unknown --diagnostic-port mode 'lisen' in '/tmp/port,lisen': use PATH, PATH,listen"
                + " or PATH,connect");
    assertThatThrownBy(() -> DiagnosticPortSpec.parse("/tmp/port,"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("mode ''");
  }

  @Test
  void bothModesAreRejected() {
    assertThatThrownBy(() -> DiagnosticPortSpec.parse("/tmp/port,listen,connect"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "--diagnostic-port takes one mode, listen or connect, not both: /tmp/port,listen,connect");
    assertThatThrownBy(() -> DiagnosticPortSpec.parse("/tmp/port,connect,connect"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("one mode");
  }
}
