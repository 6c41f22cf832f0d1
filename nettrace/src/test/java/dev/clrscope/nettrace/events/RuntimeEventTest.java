package dev.clrscope.nettrace.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/** Every event id clrscope names is the manifest's event of that name. */
class RuntimeEventTest {
  private static void check(Class<?> ids, String provider) throws Exception {
    int checked = 0;
    for (Field f : ids.getFields()) {
      if (!Modifier.isStatic(f.getModifiers()) || f.getType() != int.class) {
        continue;
      }
      int id = f.getInt(null);
      RuntimeManifest.Event e =
          RuntimeManifest.lookup(provider, id, Integer.MAX_VALUE).orElseThrow();
      assertThat(f.getName())
          .as("%s event %d", provider, id)
          .isEqualTo(constantName(e.baseSymbol()));
      checked++;
    }
    assertThat(checked).isGreaterThan(10);
  }

  /**
   * {@code GCRestartEEEnd} is {@code GC_RESTART_EE_END}, {@code MethodDCEndVerbose} {@code
   * METHOD_DC_END_VERBOSE}.
   */
  static String constantName(String symbol) {
    return symbol
        .replaceAll("([a-z0-9])([A-Z])", "$1_$2")
        .replaceAll("([A-Z]+)([A-Z][a-z])", "$1_$2")
        .toUpperCase(Locale.ROOT);
  }

  @Test
  void runtimeIdsAreTheManifests() throws Exception {
    check(RuntimeEvent.Runtime.class, RuntimeEvents.RUNTIME_PROVIDER);
  }

  @Test
  void rundownIdsAreTheManifests() throws Exception {
    check(RuntimeEvent.Rundown.class, RuntimeEvents.RUNDOWN_PROVIDER);
  }

  @Test
  void symbolsBecomeConstantNames() {
    assertThat(constantName("GCRestartEEEnd")).isEqualTo("GC_RESTART_EE_END");
    assertThat(constantName("MethodDCEndVerbose")).isEqualTo("METHOD_DC_END_VERBOSE");
    assertThat(constantName("DCStartComplete")).isEqualTo("DC_START_COMPLETE");
  }
}
