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
}
