package dev.clrscope.heapwalk;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The builder fed directly (a core's DAC walk): exact roots, garbage apart. */
class ExactBuilderTest {
  private static final long HOLDER = 1;
  private static final long ITEM = 2;
  private static final long LITERAL = 3;

  /**
   * A static holds a holder with two items; a third item nothing references (garbage); a frozen
   * literal nothing references but the runtime keeps.
   */
  private static HeapSnapshot graph() {
    HeapSnapshotBuilder b = HeapSnapshotBuilder.exact(8);
    b.typeName(HOLDER, "Holder");
    b.typeName(ITEM, "Item");
    b.typeName(LITERAL, "System.String");
    b.reference(0x1020);
    b.reference(0x1040);
    b.object(0x1000, 32, HOLDER, 2);
    b.object(0x1020, 24, ITEM, 0);
    b.object(0x1040, 24, ITEM, 0);
    b.object(0x1060, 24, ITEM, 0);
    b.object(0x9000, 40, LITERAL, 0);
    b.root(0x1000, HeapSnapshotBuilder.STATIC_ROOT, "App.Holder.Instance");
    b.root(0x9000, HeapSnapshotBuilder.FROZEN_ROOT, null);
    b.walkEnded();
    return b.build().orElseThrow();
  }

  @Test
  void garbageIsReportedApartAndRetainsNothing() {
    HeapSnapshot s = graph();
    assertThat(s.problems()).isEmpty();
    assertThat(s.unreachableCount()).isEqualTo(1);
    assertThat(s.typeStatistics())
        .containsExactly(
            new TypeStatistics("Holder", 1, 32, 80),
            new TypeStatistics("Item", 2, 48, 48),
            new TypeStatistics("System.String", 1, 40, 40));
    assertThat(s.unreachableTypeStatistics()).containsExactly(new TypeStatistics("Item", 1, 24, 0));
    assertThat(s.reachableSize()).isEqualTo(120);
    assertThat(s.totalSize()).isEqualTo(144);
  }

  @Test
  void aStaticHeldObjectsPathNamesTheField() {
    List<List<HeapSnapshot.PathStep>> paths = graph().pathsTo("Item"::equals, 10);
    assertThat(paths).hasSize(2);
    assertThat(paths.get(0).get(0).root()).isEqualTo("static field App.Holder.Instance");
    assertThat(paths.get(0))
        .extracting(HeapSnapshot.PathStep::type)
        .containsExactly(null, "Holder", "Item");
    assertThat(graph().pathsTo("System.String"::equals, 1).get(0).get(0).root())
        .isEqualTo("frozen object");
  }

  /**
   * More objects and references than a batch holds, one object's references spread over many
   * batches: every reference is its object's, whichever thread moved the batches into the columns.
   */
  @Test
  void objectsAndReferencesSpreadOverManyBatchesKeepTheirOwners() {
    int n = 50_000;
    long base = 0x10_0000;
    HeapSnapshotBuilder b = HeapSnapshotBuilder.exact(8);
    b.typeName(HOLDER, "Holder");
    b.typeName(ITEM, "Item");
    // An array of every item, then the items, each referencing the next.
    long items = base + 0x10_0000;
    for (int i = 0; i < n; i++) {
      b.reference(items + 32L * i);
    }
    b.object(base, 16 + 8L * n, HOLDER, n);
    for (int i = 0; i < n; i++) {
      int refs = 0;
      if (i + 1 < n) {
        b.reference(items + 32L * (i + 1));
        refs = 1;
      }
      b.object(items + 32L * i, 32, ITEM, refs);
    }
    b.root(base, HeapSnapshotBuilder.STATIC_ROOT, "App.Holder.All");
    b.walkEnded();
    HeapSnapshot s = b.build().orElseThrow();
    assertThat(s.problems()).isEmpty();
    assertThat(s.objectCount()).isEqualTo(n + 1);
    assertThat(s.referenceCount()).isEqualTo(2L * n - 1);
    int[] held = s.referencesOf(0);
    assertThat(held).hasSize(n);
    for (int i = 0; i < n; i++) {
      assertThat(held[i]).isEqualTo(i + 1);
      assertThat(s.referencesOf(i + 1)).containsExactly(i + 1 < n ? new int[] {i + 2} : new int[0]);
    }
    assertThat(s.retainedSize(0)).isEqualTo(16 + 8L * n + 32L * n);
  }

  /**
   * References given in bulk that fill a batch to its last slot, then one more given alone: the
   * full batch is handed over first (a live heap's triage once wrote past its end).
   */
  @Test
  void referencesThatFillABatchExactlyAreHandedOverBeforeTheNext() {
    HeapSnapshotBuilder b = HeapSnapshotBuilder.exact(8);
    b.typeName(HOLDER, "Holder");
    b.typeName(ITEM, "Item");
    long items = 0x100_0000;
    int n = 3 * 4 * 4096 + 1;
    // The first batches hold 4096 objects and four references each: 16384, then 32768.
    long[] first = new long[4 * 4096];
    for (int i = 0; i < first.length; i++) {
      first[i] = items + 32L * i;
    }
    long[] second = new long[2 * 4 * 4096];
    for (int i = 0; i < second.length; i++) {
      second[i] = items + 32L * (first.length + i);
    }
    b.references(first, first.length);
    b.references(second, second.length);
    b.reference(items + 32L * (n - 1));
    b.object(0x1000, 16 + 8L * n, HOLDER, n);
    for (int i = 0; i < n; i++) {
      b.object(items + 32L * i, 32, ITEM, 0);
    }
    b.root(0x1000, HeapSnapshotBuilder.STATIC_ROOT, "App.Holder.All");
    b.walkEnded();
    HeapSnapshot s = b.build().orElseThrow();
    assertThat(s.problems()).isEmpty();
    int[] held = s.referencesOf(0);
    assertThat(held).hasSize(n);
    for (int i = 0; i < n; i++) {
      assertThat(held[i]).isEqualTo(i + 1);
    }
  }

  /** A walk stopped half way ends the thread that fills the columns beside it. */
  @Test
  void anAbandonedWalkLeavesNoThreadBehind() throws InterruptedException {
    HeapSnapshotBuilder b = HeapSnapshotBuilder.exact(8);
    for (int i = 0; i < 20_000; i++) {
      b.object(0x1000 + 32L * i, 32, ITEM, 0);
    }
    b.abandon();
    for (int wait = 0; wait < 100 && columnsThreads() > 0; wait++) {
      Thread.sleep(20);
    }
    assertThat(columnsThreads()).isZero();
  }

  private static long columnsThreads() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(t -> t.getName().equals("clrscope-graph-columns"))
        .count();
  }
}
