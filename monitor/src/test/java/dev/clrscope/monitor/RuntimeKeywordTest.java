package dev.clrscope.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RuntimeKeywordTest {
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
    assertThat(RuntimeKeyword.GC_SAMPLED_OBJECT_ALLOCATION_HIGH.label())
        .isEqualTo("gcsampledobjectallocationhigh");
  }
}
