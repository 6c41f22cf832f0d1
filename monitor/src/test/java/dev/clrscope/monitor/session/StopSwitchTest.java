package dev.clrscope.monitor.session;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

class StopSwitchTest {
  @Test
  void aDurationOfAgesNeverOverflowsTheTimer() throws Exception {
    List<Throwable> uncaught = new CopyOnWriteArrayList<>();
    Thread.UncaughtExceptionHandler before = Thread.getDefaultUncaughtExceptionHandler();
    Thread.setDefaultUncaughtExceptionHandler((t, e) -> uncaught.add(e));
    try {
      StopSwitch s = new StopSwitch();
      s.stopAfter(Duration.ofSeconds(Long.MAX_VALUE));
      s.stopAfter(Duration.ofDays(99_999_999_999_999L));
      assertThat(s.awaitStop(Duration.ofMillis(300))).isFalse();
      s.request("Enter pressed");
      assertThat(s.awaitStop(Duration.ofSeconds(5))).isTrue();
      assertThat(s.reason()).isEqualTo("Enter pressed");
      // An overflow would have killed a timer as it started, well within the wait above.
      assertThat(uncaught).isEmpty();
    } finally {
      Thread.setDefaultUncaughtExceptionHandler(before);
    }
  }

  @Test
  void aShortDurationStopsWithItsReason() throws Exception {
    StopSwitch s = new StopSwitch();
    s.stopAfter(Duration.ofMillis(1500));
    assertThat(s.awaitStop(Duration.ofSeconds(10))).isTrue();
    assertThat(s.reason()).isEqualTo("duration of 1.5 s reached");
  }
}
