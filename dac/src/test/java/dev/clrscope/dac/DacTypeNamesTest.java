package dev.clrscope.dac;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The DAC's type names in dotnet-dump's form (the pairs were seen in a .NET 10 core). */
class DacTypeNamesTest {
  @Test
  void genericArgumentsGoToTheLevelTheirArityNames() {
    assertThat(
            DacTypeNames.readable(
                "System.Collections.Generic.Dictionary`2+Entry[[System.String, System.Private.CoreLib],[System.Object, System.Private.CoreLib]][]"))
        .isEqualTo("System.Collections.Generic.Dictionary<System.String, System.Object>+Entry[]");
    assertThat(
            DacTypeNames.readable(
                "System.Collections.Generic.List`1[[System.String, System.Private.CoreLib]]"))
        .isEqualTo("System.Collections.Generic.List<System.String>");
    assertThat(
            DacTypeNames.readable(
                "System.Buffers.SharedArrayPool`1+<>c[[System.Char, System.Private.CoreLib]]"))
        .isEqualTo("System.Buffers.SharedArrayPool<System.Char>+<>c");
  }

  @Test
  void argumentsMayBeArraysAndGenericsThemselves() {
    assertThat(
            DacTypeNames.readable(
                "System.Runtime.CompilerServices.ConditionalWeakTable`2+Entry[[System.Buffers.SharedArrayPoolThreadLocalArray[], System.Private.CoreLib],[System.Object, System.Private.CoreLib]][]"))
        .isEqualTo(
            "System.Runtime.CompilerServices.ConditionalWeakTable<System.Buffers.SharedArrayPoolThreadLocalArray[], System.Object>+Entry[]");
    assertThat(
            DacTypeNames.readable(
                "System.Collections.Generic.List`1[[System.WeakReference`1[[System.Diagnostics.Tracing.EventSource, System.Private.CoreLib]], System.Private.CoreLib]]"))
        .isEqualTo(
            "System.Collections.Generic.List<System.WeakReference<System.Diagnostics.Tracing.EventSource>>");
  }

  @Test
  void namesWithoutGenericsStayAsTheyAre() {
    assertThat(DacTypeNames.readable("System.String[,]")).isEqualTo("System.String[,]");
    assertThat(DacTypeNames.readable("TargetApp.Program+<>c__DisplayClass11_1"))
        .isEqualTo("TargetApp.Program+<>c__DisplayClass11_1");
    assertThat(DacTypeNames.readable("Free")).isEqualTo("Free");
  }
}
