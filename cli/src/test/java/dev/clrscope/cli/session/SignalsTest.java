package dev.clrscope.cli.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * {@link Signals} on this JVM: a real signal, sent by {@code kill}, reaches the handler in place.
 */
class SignalsTest {
  private static void send(String name) throws Exception {
    Process kill =
        new ProcessBuilder("kill", "-" + name, Long.toString(ProcessHandle.current().pid()))
            .start();
    assertThat(kill.waitFor()).isZero();
  }

  @Test
  void aHandlerRunsOnItsSignalAndRestoringPutsTheOneBeforeItBack() throws Exception {
    BlockingQueue<String> ran = new LinkedBlockingQueue<>();
    Signals.Previous first = Signals.handle("WINCH", () -> ran.add("first"));
    try {
      Signals.Previous second = Signals.handle("WINCH", () -> ran.add("second"));
      send("WINCH");
      assertThat(ran.poll(10, TimeUnit.SECONDS)).isEqualTo("second");
      second.restore();
      send("WINCH");
      assertThat(ran.poll(10, TimeUnit.SECONDS)).isEqualTo("first");
      Signals.ignore("WINCH");
      send("WINCH");
      assertThat(ran.poll(500, TimeUnit.MILLISECONDS)).isNull();
    } finally {
      first.restore();
    }
  }

  @Test
  void aSignalThePlatformDoesNotHaveIsLeftAlone() {
    assertThatCode(
            () -> {
              Signals.handle("NOSUCHSIGNAL", () -> {}).restore();
              Signals.ignore("NOSUCHSIGNAL");
              Signals.reset("NOSUCHSIGNAL");
            })
        .doesNotThrowAnyException();
  }
}
