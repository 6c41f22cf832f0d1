package dev.clrscope.heapwalk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clrscope.nettrace.TraceEvent;
import dev.clrscope.nettrace.events.RuntimeEvents;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The builder takes the walk in as it arrives (objects and references into columns, pages indexed
 * on the fly) and resolves it at the end: on the heaps of the three .gcdump files the real
 * dotnet-gcdump wrote (../shared/fixtures/gcdump), sent as the runtime sends a walk, it gives back
 * every object with its size, type and references, the roots, and each type's count, total and
 * retained size; in the walk's address order (through the page index) and in the file's order
 * (through the sorted index) alike. What comes after the walk (modules, the GC's sizes) is added
 * after the graph was built.
 */
class IncrementalBuilderTest {
  private static HeapSnapshot build(List<TraceEvent> events) {
    HeapSnapshotBuilder b = new HeapSnapshotBuilder();
    events.forEach(b::accept);
    assertThat(b.isComplete()).isTrue();
    assertThat(b.eventsLost()).isFalse();
    return b.build().orElseThrow();
  }

  /** Each object by address: its size, type and the addresses it references, sorted. */
  private static Map<Long, String> objects(HeapSnapshot s) {
    Map<Long, String> out = new HashMap<>();
    for (SyntheticWalk.Node n : FixtureWalks.nodesOf(s)) {
      long[] refs = n.references().clone();
      Arrays.sort(refs);
      out.put(n.address(), n.size() + " " + n.type() + " " + Arrays.toString(refs));
    }
    return out;
  }

  @Test
  void theFixturesHeapsComeBackWholeInEitherOrder() throws Exception {
    for (String name : List.of("widget.gcdump", "generic.gcdump", "loh.gcdump")) {
      HeapSnapshot file = GcDumpReader.read(FixtureWalks.fixture(name));
      List<SyntheticWalk.Node> nodes = FixtureWalks.nodesOf(file);
      List<SyntheticWalk.Root> roots = FixtureWalks.rootsOf(file);
      List<SyntheticWalk.Node> byAddress = new ArrayList<>(nodes);
      byAddress.sort(Comparator.comparingLong(SyntheticWalk.Node::address));
      Map<Long, String> expected = objects(file);
      for (List<SyntheticWalk.Node> order : List.of(byAddress, nodes)) {
        HeapSnapshot walked = build(FixtureWalks.events(order, roots, 3));
        assertThat(walked.problems()).as(name).isEmpty();
        assertThat(walked.objectCount()).as(name).isEqualTo(nodes.size());
        assertThat(objects(walked)).as(name).isEqualTo(expected);
        long references = 0;
        for (SyntheticWalk.Node n : nodes) {
          references += n.references().length;
        }
        assertThat(walked.referenceCount()).as(name).isEqualTo(references);
        assertThat(walked.rootCount()).as(name).isEqualTo(roots.size());
        assertThat(walked.totalSize()).as(name).isEqualTo(file.totalSize());
        // Per type the same objects and bytes, and the same retained size: the dominator tree over
        // the objects is the file's, whose groups of roots are sizeless.
        Map<String, TypeStatistics> fromFile = new HashMap<>();
        file.typeStatistics().forEach(t -> fromFile.put(t.type(), t));
        for (TypeStatistics t : walked.typeStatistics()) {
          assertThat(t).as(name).isEqualTo(fromFile.get(t.type()));
        }
        assertThat(walked.moduleOf(nodes.get(0).type()))
            .as(name)
            .hasValue(SyntheticWalk.MODULE_FILE);
      }
    }
  }

  @Test
  void theGraphIsBuiltAtTheWalksEndAndTheModulesAndSizesAddedWhenTheyCome() throws Exception {
    HeapSnapshot file = GcDumpReader.read(FixtureWalks.fixture("widget.gcdump"));
    List<TraceEvent> events =
        FixtureWalks.events(FixtureWalks.nodesOf(file), FixtureWalks.rootsOf(file), 5);
    HeapSnapshotBuilder b = new HeapSnapshotBuilder();
    int i = 0;
    while (!b.isComplete()) {
      b.accept(events.get(i++));
    }
    // GCEnd: the graph now, while the rest of the stream (sizes, the rundown) is still read.
    HeapSnapshot graph = b.graph().orElseThrow();
    assertThat(graph.gcNumber()).isEqualTo(5);
    assertThat(graph.moduleOf("Widget")).isEmpty();
    assertThat(graph.generationSizes()).isEmpty();
    for (; i < events.size(); i++) {
      b.accept(events.get(i));
    }
    HeapSnapshot complete = b.complete(graph);
    assertThat(complete.moduleOf("Widget")).hasValue(SyntheticWalk.MODULE_FILE);
    assertThat(complete.generationSizes())
        .hasValueSatisfying(g -> assertThat(g).containsExactly(1000, 2000, 3000, 4000, 0));
    assertThat(complete.objectCount()).isEqualTo(graph.objectCount());
    assertThat(complete.typeStatistics()).isEqualTo(file.typeStatistics());
  }

  @Test
  void aWalkCutOffAfterItsObjectsStillSaysWhatIsMissing() throws Exception {
    HeapSnapshot file = GcDumpReader.read(FixtureWalks.fixture("generic.gcdump"));
    List<TraceEvent> events =
        FixtureWalks.events(FixtureWalks.nodesOf(file), FixtureWalks.rootsOf(file), 3);
    // The stream breaks off after the objects: no references, no GCEnd.
    int lastNode = 0;
    for (int k = 0; k < events.size(); k++) {
      if (events.get(k).eventId() == 18
          && RuntimeEvents.RUNTIME_PROVIDER.equals(events.get(k).providerName())) {
        lastNode = k;
      }
    }
    HeapSnapshotBuilder b = new HeapSnapshotBuilder();
    events.subList(0, lastNode + 1).forEach(b::accept);
    assertThat(b.isComplete()).isFalse();
    assertThat(b.eventsLost()).isTrue();
    HeapSnapshot s = b.build().orElseThrow();
    assertThat(s.problems())
        .anyMatch(p -> p.contains("the end of GC 3 was not seen"))
        .anyMatch(p -> p.contains("references but 0 arrived"));
    assertThat(s.referenceCount()).isZero();
    assertThat(s.objectCount()).isEqualTo(FixtureWalks.nodesOf(file).size());
  }
}
