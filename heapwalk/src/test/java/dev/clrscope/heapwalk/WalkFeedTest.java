package dev.clrscope.heapwalk;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * An exact walk's batches built on the builder's own thread: every reference resolved to the object
 * it leads to, whether that object came before its referrer (resolved as it came) or after it
 * (resolved with the graph), across batch boundaries, into and out of runs.
 */
class WalkFeedTest {
  private static final int OBJECTS = 30_000;

  /** A heap in address order, each object with references back, forward, to itself, to nothing. */
  private record Heap(long[] address, long[] type, List<long[]> references) {}

  private static Heap heap(long seed) {
    Random random = new Random(seed);
    long[] address = new long[OBJECTS];
    long[] type = new long[OBJECTS];
    long at = 0x7f00_0000_0000L;
    for (int i = 0; i < OBJECTS; i++) {
      // Now and then a gap of pages, as between segments.
      at += random.nextInt(100) == 0 ? 1 << 20 : 8 * (3 + random.nextInt(6));
      address[i] = at;
      type[i] = 1 + random.nextInt(4);
    }
    List<long[]> references = new ArrayList<>();
    for (int i = 0; i < OBJECTS; i++) {
      int n = random.nextInt(20) == 0 ? 200 + random.nextInt(3000) : random.nextInt(4);
      long[] r = new long[n];
      for (int k = 0; k < n; k++) {
        int kind = random.nextInt(6);
        r[k] =
            switch (kind) {
              case 0 -> address[random.nextInt(OBJECTS)];
              case 1 -> address[Math.min(OBJECTS - 1, i + 1 + k)]; // the objects after it in turn
              case 2 -> address[0]; // one shared object
              case 3 -> address[i] + 8; // inside an object: none
              case 4 -> address[OBJECTS - 1] + 0x10_0000; // beyond the heap
              default -> address[Math.max(0, i - 1 - k)]; // the objects before it
            };
      }
      references.add(r);
    }
    return new Heap(address, type, references);
  }

  private static HeapSnapshot build(Heap h, boolean batches) {
    HeapSnapshotBuilder b = HeapSnapshotBuilder.exact(8);
    for (long t = 1; t <= 4; t++) {
      b.typeName(t, "T" + t);
    }
    if (batches) {
      try (WalkFeed feed = b.feed()) {
        WalkBatch batch = feed.first();
        int count = 0;
        for (int i = 0; i < OBJECTS; i++) {
          for (long target : h.references().get(i)) {
            if (count == batch.targets().length) {
              batch.targetsWritten(count);
              batch = feed.hand(batch);
              count = 0;
            }
            batch.targets()[count++] = target;
          }
          if (batch.object(h.address()[i], 24, h.type()[i], h.references().get(i).length)) {
            batch.targetsWritten(count);
            batch = feed.hand(batch);
            count = 0;
          }
        }
        batch.targetsWritten(count);
        feed.finish(batch);
      }
    } else {
      for (int i = 0; i < OBJECTS; i++) {
        for (long target : h.references().get(i)) {
          b.reference(target);
        }
        b.object(h.address()[i], 24, h.type()[i], h.references().get(i).length);
      }
    }
    b.root(h.address()[0], HeapSnapshotBuilder.STATIC_ROOT, "App.Root");
    b.walkEnded();
    return b.build().orElseThrow();
  }

  @Test
  void everyReferenceLeadsToItsObjectOrToNone() {
    Heap h = heap(35);
    Map<Long, Integer> byAddress = new HashMap<>();
    for (int i = 0; i < OBJECTS; i++) {
      byAddress.put(h.address()[i], i);
    }
    for (boolean batches : new boolean[] {true, false}) {
      HeapSnapshot s = build(h, batches);
      assertThat(s.objectCount()).isEqualTo(OBJECTS);
      long outside = 0;
      long given = 0;
      for (int i = 0; i < OBJECTS; i++) {
        long[] r = h.references().get(i);
        List<Integer> expected = new ArrayList<>();
        for (long target : r) {
          Integer o = byAddress.get(target);
          if (o == null) {
            outside++;
          } else {
            expected.add(o);
          }
        }
        given += r.length;
        List<Integer> actual = new ArrayList<>();
        for (int o : s.referencesOf(i)) {
          actual.add(o);
        }
        assertThat(actual).as("object %d's references", i).isEqualTo(expected);
      }
      assertThat(s.referenceCount()).isEqualTo(given - outside);
      assertThat(s.referencesOutsideTheHeap()).isEqualTo(outside);
    }
  }

  @Test
  void batchesAndSingleObjectsBuildTheSameGraph() {
    Heap h = heap(3);
    HeapSnapshot fed = build(h, true);
    HeapSnapshot single = build(h, false);
    assertThat(fed.typeStatistics()).isEqualTo(single.typeStatistics());
    assertThat(fed.unreachableCount()).isEqualTo(single.unreachableCount());
    for (int i = 0; i < OBJECTS; i += 7) {
      assertThat(fed.retainedSize(i)).isEqualTo(single.retainedSize(i));
    }
  }
}
