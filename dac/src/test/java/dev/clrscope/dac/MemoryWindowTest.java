package dev.clrscope.dac;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Words of target memory through a read-ahead window: one at a time, and a run at a time. */
class MemoryWindowTest {
  private static final long BASE = 0x7f00_0010_0000L;

  private static byte[] random(Random r, int n) {
    byte[] b = new byte[n];
    r.nextBytes(b);
    return b;
  }

  @Test
  void aRunOfWordsIsReadAWindowAtATime() {
    Random r = new Random(1);
    RegionMemory memory = new RegionMemory().add(BASE, random(r, 64 << 10));
    MemoryWindow w = new MemoryWindow(memory, 4096);
    long[] into = new long[8192];

    w.words(BASE, BASE + (64 << 10), into, 8192);

    // 64 KiB through a 4 KiB window: 16 reads, not 8192.
    assertThat(memory.reads()).isEqualTo(16);
    for (int i = 0; i < 8192; i++) {
      assertThat(into[i]).isEqualTo(memory.wordOrZero(BASE + 8L * i));
    }
  }

  @Test
  void unreadableWordsAreZeroAndAWordCutShortIsUnreadable() {
    // 20 readable bytes: two whole words, then 4 bytes of a third; nothing after.
    byte[] bytes = new byte[20];
    Arrays.fill(bytes, (byte) 0x11);
    RegionMemory memory = new RegionMemory().add(BASE, bytes);
    MemoryWindow w = new MemoryWindow(memory, 4096);
    long[] into = {-1, -1, -1, -1, -1, -1};

    w.words(BASE, BASE + 4096, into, 5);

    assertThat(into).containsExactly(0x1111111111111111L, 0x1111111111111111L, 0, 0, 0, -1);
  }

  @Test
  void wordsBeforeAHoleAfterItAndAcrossRegionsAreReadAsOneAtATimeWould() {
    // Random regions with holes between some, adjacent to others; runs that start anywhere (on a
    // word or not), cross windows and regions; limits before, inside and past the run; one window
    // kept over many runs, as the walk keeps it.
    Random r = new Random(2);
    for (int round = 0; round < 200; round++) {
      RegionMemory memory = new RegionMemory();
      long at = BASE;
      for (int k = 0; k < 6; k++) {
        int length = 1 + r.nextInt(600);
        memory.add(at, random(r, length));
        at += length + (r.nextBoolean() ? 0 : r.nextInt(100));
      }
      long span = at - BASE;
      int windowSize = 8 + r.nextInt(300);
      MemoryWindow bulk = new MemoryWindow(memory, windowSize);
      for (int run = 0; run < 30; run++) {
        long from = BASE - 64 + r.nextInt((int) span + 128);
        if (r.nextInt(4) > 0) {
          from &= ~7L;
        }
        int n = r.nextInt(120);
        long limit = from + 8L * n + r.nextInt(200) - 100;
        long[] into = new long[n + 2];
        Arrays.fill(into, 0x5a5a);

        bulk.words(from, limit, into, n);

        MemoryWindow single = new MemoryWindow(memory, windowSize);
        for (int i = 0; i < n; i++) {
          long address = from + 8L * i;
          assertThat(into[i])
              .as("round %d, run from 0x%x, word %d", round, from, i)
              .isEqualTo(memory.wordOrZero(address))
              .isEqualTo(single.word(address, limit));
        }
        assertThat(into[n]).isEqualTo(0x5a5a);
        assertThat(into[n + 1]).isEqualTo(0x5a5a);
      }
    }
  }
}
