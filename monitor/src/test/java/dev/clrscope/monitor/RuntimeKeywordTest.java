package dev.clrscope.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clrscope.monitor.trace.TraceProfile;
import org.junit.jupiter.api.Test;

class RuntimeKeywordTest {
  private static long profileKeywords(String name) {
    return TraceProfile.byName(name).orElseThrow().providers().get(0).keywords();
  }

  @Test
  void everyKeywordIsOneDistinctBitAndParsesByItsLabel() {
    long seen = 0;
    for (RuntimeKeyword k : RuntimeKeyword.values()) {
      assertThat(Long.bitCount(k.mask())).as("%s", k).isEqualTo(1);
      assertThat(seen & k.mask()).as("%s", k).isZero();
      seen |= k.mask();
      assertThat(RuntimeKeyword.parse(k.label())).isEqualTo(k.mask());
    }
    assertThat(RuntimeKeyword.labels()).hasSize(RuntimeKeyword.values().length);
  }

  @Test
  void theBitsAreTheManifestsForTheOnesClrscopeUses() {
    assertThat(RuntimeKeyword.GC.mask()).isEqualTo(0x1L);
    assertThat(RuntimeKeyword.MANAGED_HEAP_COLLECT.mask()).isEqualTo(0x800000L);
    assertThat(RuntimeKeyword.GC_HEAP_DUMP.mask()).isEqualTo(0x100000L);
    assertThat(RuntimeKeyword.EXCEPTION.label()).isEqualTo("exception");
    // The profiles spelled with names are dotnet-trace's masks.
    assertThat(profileKeywords("dotnet-common")).isEqualTo(0x100003801DL);
    assertThat(profileKeywords("gc-verbose")).isEqualTo(0x8003L);
    assertThat(profileKeywords("gc-collect")).isEqualTo(0x1L);
    assertThat(TraceProfile.byName("gc-collect").orElseThrow().rundownKeyword()).isEqualTo(0x1L);
    assertThat(RuntimeKeyword.GC_SAMPLED_OBJECT_ALLOCATION_HIGH.label())
        .isEqualTo("gcsampledobjectallocationhigh");
  }
}
