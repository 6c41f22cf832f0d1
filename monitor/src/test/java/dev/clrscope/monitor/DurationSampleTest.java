package dev.clrscope.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.Random;
import org.junit.jupiter.api.Test;

class DurationSampleTest {
  @Test
  void exactPercentilesByNearestRank() {
    DurationSample s = new DurationSample();
    for (int ms = 1; ms <= 100; ms++) {
      s.add(ms * 1_000_000L);
    }
    DurationSample.Stats stats = s.stats();
    assertThat(stats).isEqualTo(new DurationSample.Stats(100, 5050.0, 50.0, 95.0, 100.0, true));
  }

  /**
   * Past the limit a histogram takes over: memory stops growing with the count, the count, total
   * and maximum stay exact, and the percentiles stay within 0.1 % of the exact ones.
   */
  @Test
  void pastTheLimitPercentilesComeWithinATenthOfAPercent() {
    DurationSample s = new DurationSample();
    Random random = new Random(42);
    int n = DurationSample.EXACT_LIMIT + 500_000;
    long[] all = new long[n];
    long total = 0;
    for (int i = 0; i < n; i++) {
      // 0.01 ms to about 2 s, most of them short: a request's or a lock's durations.
      all[i] = 10_000L + (long) (Math.pow(random.nextDouble(), 4) * 2e9);
      total += all[i];
      s.add(all[i]);
    }
    java.util.Arrays.sort(all);

    DurationSample.Stats stats = s.stats();

    assertThat(stats.exact()).isFalse();
    assertThat(stats.count()).isEqualTo(n);
    assertThat(stats.totalMillis()).isCloseTo(total / 1e6, within(1e-3));
    assertThat(stats.maxMillis()).isEqualTo(all[n - 1] / 1e6);
    double p50 = all[(int) Math.ceil(0.50 * n) - 1] / 1e6;
    double p95 = all[(int) Math.ceil(0.95 * n) - 1] / 1e6;
    assertThat(stats.p50Millis()).isCloseTo(p50, within(p50 * 0.001));
    assertThat(stats.p95Millis()).isCloseTo(p95, within(p95 * 0.001));
  }

  @Test
  void addAllMergesExactIntoAHistogramAndBack() {
    DurationSample big = new DurationSample();
    for (int i = 0; i < DurationSample.EXACT_LIMIT + 1; i++) {
      big.add(1_000_000L);
    }
    DurationSample small = new DurationSample();
    small.add(3_000_000L);

    DurationSample merged = new DurationSample();
    merged.addAll(small);
    merged.addAll(big);

    DurationSample.Stats stats = merged.stats();
    assertThat(stats.count()).isEqualTo(DurationSample.EXACT_LIMIT + 2L);
    assertThat(stats.maxMillis()).isEqualTo(3.0);
    assertThat(stats.p50Millis()).isCloseTo(1.0, within(0.001));
    assertThat(stats.totalMillis()).isEqualTo(DurationSample.EXACT_LIMIT + 1 + 3.0);
  }
}
