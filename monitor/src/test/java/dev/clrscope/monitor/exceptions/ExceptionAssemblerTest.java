package dev.clrscope.monitor.exceptions;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clrscope.monitor.methods.MethodAddressMap;
import dev.clrscope.nettrace.NetTraceReader;
import dev.clrscope.nettrace.TraceEvent;
import dev.clrscope.symbols.Frame;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Exceptions from a real .NET 10 trace: {@code net10-fail-contend-wait.nettrace} is TargetApp (.NET
 * 10.0.12, Linux x64) traced with the runtime's Exception, Contention, WaitHandle, Jit and Loader
 * keywords at Verbose, attached while it ran {@code fail 3}, {@code contend monitor 2}, {@code
 * contend lock 2} and {@code wait 2}, with the default rundown at the end.
 */
class ExceptionAssemblerTest {
  static final String TRACE = "/dev/clrscope/monitor/contention/net10-fail-contend-wait.nettrace";

  private final List<ExceptionRecord> out = new ArrayList<>();

  private ExceptionAssembler feed(MethodAddressMap methods, Pattern type, boolean stacks)
      throws IOException {
    ExceptionAssembler a =
        new ExceptionAssembler(methods, t -> type.matcher(t).find(), stacks, out::add);
    try (InputStream in = ExceptionAssemblerTest.class.getResourceAsStream(TRACE);
        NetTraceReader r = NetTraceReader.open(in)) {
      TraceEvent e;
      while ((e = r.next()) != null) {
        a.accept(e);
      }
    }
    a.streamEnded();
    return a;
  }

  @Test
  void everyThrowIsOneRowCaughtWhereTheAppCaughtIt() throws IOException {
    ExceptionAssembler a = feed(new MethodAddressMap(), Pattern.compile(""), true);

    assertThat(out).hasSize(3);
    assertThat(out)
        .allSatisfy(
            r -> {
              assertThat(r.type()).isEqualTo("TargetApp.WidgetFailure");
              assertThat(r.message()).isEqualTo("widget failure on request");
              // The app's methods were compiled while the session ran: named live.
              assertThat(r.throwSite())
                  .isEqualTo(Frame.of("TargetApp.Monitored.ThrowWidgetFailure"));
              assertThat(r.caught()).isTrue();
              assertThat(r.handling()).isEqualTo("caught");
              assertThat(r.catchingMethod())
                  .isEqualTo("void [TargetApp] TargetApp.Monitored::Fail(int32)");
              assertThat(r.flags()).containsExactly("CLSCompliant");
              assertThat(r.hresult()).isEqualTo(0x80131500L);
              // Live, the dispatcher's precompiled frame has no name yet; Main was compiled before.
              assertThat(r.stack())
                  .extracting(Frame::name)
                  .hasSize(5)
                  .element(1)
                  .isEqualTo("TargetApp.Monitored.ThrowWidgetFailure");
              assertThat(r.stack().get(0).name()).startsWith("0x");
              assertThat(r.stack().get(2).name()).isEqualTo("TargetApp.Monitored.Fail");
            });
    assertThat(out).extracting(ExceptionRecord::threadId).containsOnly(out.get(0).threadId());

    ExceptionSummary s = a.summary(4_000_000_000L);
    assertThat(s.exceptions()).isEqualTo(3);
    assertThat(s.uncaught()).isZero();
    assertThat(s.perSecond()).isEqualTo(0.75);
    assertThat(s.byType()).containsExactly(java.util.Map.entry("TargetApp.WidgetFailure", 3L));
    assertThat(s.byThrowSite())
        .containsExactly(
            new ExceptionSummary.SiteCount(
                "TargetApp.WidgetFailure", Frame.of("TargetApp.Monitored.ThrowWidgetFailure"), 3));
  }

  @Test
  void withTheWholeTracesMethodsEveryFrameHasItsName() throws IOException {
    MethodAddressMap methods = new MethodAddressMap();
    try (InputStream in = ExceptionAssemblerTest.class.getResourceAsStream(TRACE);
        NetTraceReader r = NetTraceReader.open(in)) {
      TraceEvent e;
      while ((e = r.next()) != null) {
        methods.accept(e);
      }
    }
    feed(methods, Pattern.compile("Widget"), true);

    assertThat(out).hasSize(3);
    assertThat(out.get(0).stack())
        .extracting(Frame::name)
        .containsExactly(
            "System.Runtime.EH.DispatchEx",
            "TargetApp.Monitored.ThrowWidgetFailure",
            "TargetApp.Monitored.Fail",
            "TargetApp.Program.Execute",
            "TargetApp.Program.Main");
  }

  @Test
  void theTypeFilterLeavesOutRowsAndCounts() throws IOException {
    ExceptionAssembler a = feed(new MethodAddressMap(), Pattern.compile("^System\\."), false);

    assertThat(out).isEmpty();
    assertThat(a.summary(1).exceptions()).isZero();
  }

  @Test
  void flagsAreNamedAndUnknownBitsKept() {
    assertThat(ExceptionFlag.labels(0x16)).containsExactly("Nested", "ReThrown", "CLSCompliant");
    assertThat(ExceptionFlag.labels(0x41)).containsExactly("HasInnerException", "0x40");
  }
}
