package dev.clrscope.ipc.transport;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.util.Arrays;
import org.junit.jupiter.api.Test;

class UnixSocketPreloadTest {
  @Test
  void theStarterHoldsNoLoggerSoItNeverBindsSlf4jOnTheCallersThread() {
    // A logger field would bind slf4j in the class's initialisation, on the caller's thread,
    // before the daemon thread starts: the two would run one after the other again.
    assertThat(Arrays.stream(UnixSocketPreload.class.getDeclaredFields()).map(Field::getType))
        .doesNotContain(org.slf4j.Logger.class);
  }
}
