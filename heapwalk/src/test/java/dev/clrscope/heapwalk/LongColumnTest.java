package dev.clrscope.heapwalk;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

class LongColumnTest {
  @Test
  void addsAndRunsOfAddsAcrossChunksKeepEveryValueInOrder() {
    Random random = new Random(3);
    LongColumn column = new LongColumn();
    long next = 1;
    // Past three chunks, one value and runs of values in turn: the run of values must count what
    // the one-value adds put in the chunk being filled.
    while (column.size() < 3 * LongColumn.chunkSize() + 12_345) {
      if (random.nextInt(50) == 0) {
        int n = random.nextInt(5_000);
        long[] run = new long[n + 3];
        for (int k = 0; k < n; k++) {
          run[k] = next++;
        }
        column.addAll(run, n);
      } else {
        column.add(next++);
      }
      if (random.nextInt(100_000) == 0) {
        assertThat(column.size()).isEqualTo(next - 1);
      }
    }
    int n = column.size();
    assertThat(n).isEqualTo(next - 1);
    for (int i = 0; i < n; i += 997) {
      assertThat(column.get(i)).isEqualTo(i + 1);
    }
    assertThat(column.get(n - 1)).isEqualTo(n);
    long[] all = column.drain();
    assertThat(all).hasSize(n);
    for (int i = 0; i < n; i++) {
      if (all[i] != i + 1) {
        assertThat(all[i]).as("entry %d", i).isEqualTo(i + 1);
      }
    }
    assertThat(column.size()).isZero();
    column.add(7);
    assertThat(column.size()).isEqualTo(1);
    assertThat(column.get(0)).isEqualTo(7);
  }

  @Test
  void aSealedColumnIsReadWholeByTheResolution() {
    LongColumn column = new LongColumn();
    int n = 2 * LongColumn.chunkSize() + 5;
    for (int i = 0; i < n; i++) {
      column.add(i % 7 == 0 ? 0 : 1000 + i);
    }
    int[] into = new int[column.size()];
    long outside = Resolution.resolve(column, into, a -> a >= 1000 + 10 ? (int) (a - 1000) : -1);
    // Nonzero addresses below 1010 found no object: i = 1..9 but 7.
    assertThat(outside).isEqualTo(8);
    assertThat(into[n - 1]).isEqualTo(n - 1 == 0 || (n - 1) % 7 == 0 ? -1 : n - 1);
    assertThat(into[14]).isEqualTo(-1);
    assertThat(into[15]).isEqualTo(15);
  }
}
