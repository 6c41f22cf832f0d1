package dev.clrscope.monitor.exceptions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clrscope.monitor.methods.MethodAddressMap;
import dev.clrscope.nettrace.NetTraceReader;
import dev.clrscope.nettrace.TraceEvent;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A process that died of an exception: TargetApp's {@code fail 1} then {@code crash} (an unhandled
 * {@code TargetApp.WidgetFailure}; the app's UnhandledException handler waits 500 ms so the events
 * are flushed before the abort), recorded with {@code trace collect --no-rundown --providers
 * Microsoft-Windows-DotNETRuntime:0x8010:5 -- dotnet TargetApp.dll} (exit code 134).
 */
class UnhandledExceptionTest {
  private static final String TRACE = "/dev/clrscope/monitor/exceptions/net10-crash.nettrace";

  private final List<ExceptionRecord> out = new ArrayList<>();

  private ExceptionAssembler feed(boolean endedByItself) throws IOException {
    ExceptionAssembler a =
        new ExceptionAssembler(new MethodAddressMap(), t -> true, false, out::add);
    try (InputStream in = UnhandledExceptionTest.class.getResourceAsStream(TRACE);
        NetTraceReader r = NetTraceReader.open(in)) {
      TraceEvent e;
      while ((e = r.next()) != null) {
        a.accept(e);
      }
    }
    a.streamEnded(endedByItself);
    return a;
  }

  @Test
  void anExceptionInFlightWhenTheTargetExitedIsUnhandled() throws IOException {
    ExceptionSummary s = feed(true).summary(1_000_000_000L);

    assertThat(out).extracting(ExceptionRecord::handling).containsExactly("caught", "unhandled");
    ExceptionRecord fatal = out.get(1);
    assertThat(fatal.type()).isEqualTo("TargetApp.WidgetFailure");
    assertThat(fatal.message()).isEqualTo("unhandled widget failure");
    assertThat(fatal.throwSite().name()).isEqualTo("TargetApp.Monitored.ThrowUnhandled");
    assertThat(fatal.unhandled()).isTrue();
    assertThat(fatal.catchingMethod()).isNull();
    assertThat(s.uncaught()).isEqualTo(1);
    assertThat(s.unhandled()).isEqualTo(1);
  }

  @Test
  void inFlightWhenClrscopeStoppedIsOnlyUncaught() throws IOException {
    ExceptionSummary s = feed(false).summary(1_000_000_000L);

    assertThat(out).extracting(ExceptionRecord::handling).containsExactly("caught", "uncaught");
    assertThat(out.get(1).unhandled()).isFalse();
    assertThat(s.uncaught()).isEqualTo(1);
    assertThat(s.unhandled()).isZero();
  }
}
