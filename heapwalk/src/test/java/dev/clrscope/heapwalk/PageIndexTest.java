package dev.clrscope.heapwalk;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Objects found by address through the pages they start on, indexed as the walk's objects arrive:
 * every object at its index, nothing found between objects, and a walk out of order said.
 */
class PageIndexTest {
  /**
   * A heap walked as the GC walks it: regions (here 64 KB to 1 MB apart, in a shuffled order), each
   * from low addresses to high, objects of 24 to 4,000 bytes (some spanning pages) on 8-byte
   * boundaries.
   */
  private static long[] walk(Random random, int regions, int alignment) {
    List<Long> bases = new ArrayList<>();
    for (int r = 0; r < regions; r++) {
      bases.add(0x7f00_0000_0000L + (long) r * (1 << 20));
    }
    Collections.shuffle(bases, random);
    List<Long> addresses = new ArrayList<>();
    for (long base : bases) {
      long a = base + alignment * random.nextInt(8);
      long end = base + (64 << 10) + random.nextInt(900 << 10);
      while (a < end) {
        addresses.add(a);
        int size = random.nextInt(10) == 0 ? 24 + random.nextInt(4000) : 24 + random.nextInt(64);
        a += (size + alignment - 1) / alignment * alignment;
      }
    }
    return addresses.stream().mapToLong(Long::longValue).toArray();
  }

  @Test
  void everyObjectOfAnOrderedWalkIsFoundAtItsIndexAndNothingBetweenThem() {
    Random random = new Random(28);
    for (int pointer : new int[] {8, 4}) {
      long[] addresses = walk(random, 40, pointer);
      PageIndex index = new PageIndex(pointer);
      // In the builder's batches of a GCBulkNode event's rows, and one at a time.
      int half = addresses.length / 2;
      index.addAll(addresses, half);
      for (int i = half; i < addresses.length; i++) {
        index.add(addresses[i]);
      }
      assertThat(index.ordered()).isTrue();
      assertThat(index.size()).isEqualTo(addresses.length);
      for (int i = 0; i < addresses.length; i++) {
        assertThat(index.find(addresses[i])).as("object %d", i).isEqualTo(i);
      }
      AddressIndex sorted = new AddressIndex(addresses);
      for (int k = 0; k < 20_000; k++) {
        long probe = addresses[random.nextInt(addresses.length)] + random.nextInt(64) - 32;
        assertThat(index.find(probe)).as("0x%x", probe).isEqualTo(sorted.find(probe));
      }
      assertThat(index.find(0x1000)).isEqualTo(-1);
      assertThat(index.find(addresses[0] + 1)).isEqualTo(-1);
    }
  }

  @Test
  void aPageWhoseObjectsAreApartIsNotIndexed() {
    PageIndex index = new PageIndex(8);
    index.add(0x10_0000);
    index.add(0x10_0020);
    index.add(0x20_0000);
    index.add(0x10_0040);
    assertThat(index.ordered()).isFalse();
    assertThat(index.size()).isEqualTo(4);
  }

  @Test
  void objectsOfAPageOutOfAddressOrderAreNotIndexed() {
    PageIndex index = new PageIndex(8);
    index.addAll(new long[] {0x10_0040, 0x10_0020}, 2);
    assertThat(index.ordered()).isFalse();
  }

  @Test
  void anAddressOffItsGranuleIsNotIndexed() {
    PageIndex index = new PageIndex(8);
    index.add(0x10_0004);
    assertThat(index.ordered()).isFalse();
  }

  @Test
  void aMillionPagesGrowTheTableAndStayFound() {
    PageIndex index = new PageIndex(8);
    int n = 1 << 20;
    for (int i = 0; i < n; i++) {
      index.add(0x7000_0000_0000L + ((long) i << 12) + 8 * (i & 7));
    }
    assertThat(index.ordered()).isTrue();
    for (int i = 0; i < n; i += 997) {
      assertThat(index.find(0x7000_0000_0000L + ((long) i << 12) + 8 * (i & 7))).isEqualTo(i);
    }
  }
}
