package dev.clrscope.ipc.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EventPipeProviderTest {

  private static EventPipeProvider withArgs(String... kv) {
    Map<String, String> m = new LinkedHashMap<>();
    for (int i = 0; i < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return new EventPipeProvider("P", 0, 4, m, List.of());
  }

  @Test
  void noArgumentsIsNull() {
    assertThat(new EventPipeProvider("P", 0, 4).filterData()).isNull();
  }

  @Test
  void argumentsAreJoinedInOrder() {
    assertThat(withArgs("EventCounterIntervalSec", "1", "b", "2").filterData())
        .isEqualTo("EventCounterIntervalSec=1;b=2");
  }

  @Test
  void valuesWithSemicolonOrEqualsAreQuoted() {
    assertThat(withArgs("Metrics", "System.Runtime;Foo", "F", "x=y", "n", "plain").filterData())
        .isEqualTo("Metrics=\"System.Runtime;Foo\";F=\"x=y\";n=plain");
  }

  @Test
  void emptyValueIsKept() {
    assertThat(withArgs("a", "").filterData()).isEqualTo("a=");
  }

  @Test
  void copiesItsCollections() {
    Map<String, String> args = new LinkedHashMap<>();
    args.put("a", "1");
    List<Integer> ids = new ArrayList<>(List.of(1));
    EventPipeProvider p = new EventPipeProvider("P", 0, 4, args, ids);
    args.put("b", "2");
    ids.add(2);
    assertThat(p.filterData()).isEqualTo("a=1");
    assertThat(p.eventIds()).containsExactly(1);
  }

  @Test
  void validatesNameAndLevel() {
    assertThatThrownBy(() -> new EventPipeProvider(" ", 0, 4))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new EventPipeProvider("P", 0, 6))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("0 to 5");
    assertThatThrownBy(() -> new EventPipeProvider("P", 0, -1))
        .isInstanceOf(IllegalArgumentException.class);
    assertThat(new EventPipeProvider("P", 0, 0).level()).isZero();
  }

  @Test
  void sessionConfigValidatesAndDetectsFilters() {
    assertThatThrownBy(() -> EventPipeSessionConfig.of(256, List.of()))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () -> EventPipeSessionConfig.of(0, List.of(new EventPipeProvider("P", 0, 4))))
        .isInstanceOf(IllegalArgumentException.class);
    EventPipeSessionConfig c =
        EventPipeSessionConfig.of(64, List.of(new EventPipeProvider("P", 0, 4)));
    assertThat(c.hasEventFilter()).isFalse();
    assertThat(c.rundownKeyword()).isEqualTo(0x80020139L);
    assertThat(c.requestStackwalk()).isTrue();
    assertThat(c.lossless()).isFalse();
    EventPipeSessionConfig f =
        EventPipeSessionConfig.of(
            64, List.of(new EventPipeProvider("P", 0, 4, Map.of(), List.of(3))));
    assertThat(f.hasEventFilter()).isTrue();
  }
}
