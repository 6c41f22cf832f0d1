package dev.clrscope.monitor.alloc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clrscope.monitor.methods.MethodAddressMap;
import dev.clrscope.nettrace.NetTraceReader;
import dev.clrscope.nettrace.TraceEvent;
import dev.clrscope.symbols.Frame;
import dev.clrscope.symbols.FrameResolver;
import java.io.IOException;
import java.io.InputStream;
import org.junit.jupiter.api.Test;

/**
 * A .NET 10.0.12 trace of TargetApp's {@code allocate 20000 3} recorded with {@code trace collect
 * --clrevents gc --clreventlevel verbose}: 20,000 {@code TargetApp.ProfiledWidget} (144 bytes each)
 * in {@code TargetApp.Profiled.MakeWidgets}, then three {@code byte[100000]}.
 */
class AllocationSamplerTest {
  static final String TRACE = "/dev/clrscope/monitor/alloc/net10-allocate-20000-3.nettrace";

  @Test
  void typesAndStacksOfTheAllocationTicks() throws IOException {
    AllocationSampler sampler = new AllocationSampler();
    MethodAddressMap methods = new MethodAddressMap();
    try (InputStream in = AllocationSamplerTest.class.getResourceAsStream(TRACE);
        NetTraceReader r = NetTraceReader.open(in)) {
      TraceEvent e;
      while ((e = r.next()) != null) {
        methods.accept(e);
        sampler.accept(e);
      }
    }
    AllocationSummary s = sampler.summary(FrameResolver.managedOnly(methods.codeMap()), 3);

    assertThat(s.ticks()).isEqualTo(33);
    assertThat(s.ticksWithoutStack()).isZero();
    TypeAllocations widget = s.types().get(0);
    assertThat(widget.type()).isEqualTo("TargetApp.ProfiledWidget");
    assertThat(widget.large()).isFalse();
    assertThat(widget.ticks()).isEqualTo(27);
    // Each sampled object is one widget: 144 bytes.
    assertThat(widget.sampledBytes()).isEqualTo(27 * 144);
    // 20,000 x 144 bytes = 2.88 MB allocated; the ticks stand for about that.
    assertThat(widget.estimatedBytes()).isBetween(2_500_000L, 3_000_000L);
    assertThat(s.types())
        .anySatisfy(
            t -> {
              assertThat(t.type()).isEqualTo("System.Byte[]");
              assertThat(t.large()).isTrue();
            });

    StackAllocations top = s.stacks().get(0);
    assertThat(top.large()).isFalse();
    assertThat(top.topType()).isEqualTo("TargetApp.ProfiledWidget");
    assertThat(top.ticks()).isEqualTo(27);
    assertThat(top.frames())
        .extracting(Frame::name)
        .startsWith(
            "TargetApp.Profiled.MakeWidgets",
            "TargetApp.Profiled.Allocate",
            "TargetApp.Program.Execute");
    StackAllocations large =
        s.stacks().stream().filter(StackAllocations::large).findFirst().orElseThrow();
    assertThat(large.frames().get(0).name()).isEqualTo("TargetApp.Profiled.MakeLargeArrays");
    // At most three stacks per heap.
    assertThat(s.stacks().stream().filter(x -> !x.large()).count()).isLessThanOrEqualTo(3);
  }
}
