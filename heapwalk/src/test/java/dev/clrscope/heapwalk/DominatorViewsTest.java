package dev.clrscope.heapwalk;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The biggest retainers' tree and the flame graph of the widget .gcdump. */
class DominatorViewsTest {
  private static HeapSnapshot widgets() throws Exception {
    return GcDumpReader.read(
        java.nio.file.Path.of(GcDumpReaderTest.class.getResource("/heap-walk.nettrace").toURI())
            .getParent()
            .resolve("../../../../shared/fixtures/gcdump/widget.gcdump")
            .normalize());
  }

  /** Every node of the tree, depth first. */
  private static List<HeapSnapshot.Retainer> flatten(List<HeapSnapshot.Retainer> nodes) {
    List<HeapSnapshot.Retainer> all = new ArrayList<>();
    for (HeapSnapshot.Retainer r : nodes) {
      all.add(r);
      all.addAll(flatten(r.children()));
    }
    return all;
  }

  @Test
  void theArrayThatHoldsEveryWidgetIsTheBiggestRetainer() throws Exception {
    HeapSnapshot s = widgets();
    List<HeapSnapshot.Retainer> tree = s.biggestRetainers(6, 0.5, 3);
    HeapSnapshot.Retainer array =
        flatten(tree).stream().filter(r -> r.type().equals("Widget[]")).findFirst().orElseThrow();
    assertThat(array.retained()).isEqualTo(5_925_960);
    assertThat(array.size()).isEqualTo(987_680);
    // Each Widget retains 40 bytes, far under half the heap: the tree stops at the array.
    assertThat(array.children()).isEmpty();
  }

  @Test
  void theFlameGraphCountsEveryObjectOnceUnderItsDominators() throws Exception {
    HeapSnapshot s = widgets();
    Map<String, Long> folded = s.dominatorFlame(64);
    assertThat(folded.values().stream().mapToLong(Long::longValue).sum()).isEqualTo(s.totalSize());
    assertThat(folded)
        .hasEntrySatisfying(
            folded.keySet().stream()
                .filter(k -> k.endsWith(";Widget[];Widget"))
                .findFirst()
                .orElseThrow(),
            v -> assertThat(v).isEqualTo(4_938_280));
  }
}
