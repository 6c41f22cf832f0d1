package dev.clrscope.heapwalk;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Shortest paths to one object over a snapshot's references, as gcroot asks for them. */
class PathSearchTest {
  private static final long A = 0x1000;
  private static final long B = 0x1020;
  private static final long TARGET = 0x1040;
  private static final long C = 0x1060;
  private static final long D = 0x1080;
  private static final long E = 0x10a0;
  private static final long F = 0x10c0;
  private static final long G = 0x10e0;

  /**
   * A -> B -> TARGET, and A -> G -> B (a longer way); C -> D, which leads nowhere; F -> B; E keeps
   * TARGET alive through a dependent handle only.
   */
  private static HeapSnapshot graph() {
    HeapSnapshotBuilder b = HeapSnapshotBuilder.exact(8);
    b.typeName(1, "Node");
    b.reference(G);
    b.reference(B);
    b.object(A, 32, 1, 2);
    b.reference(TARGET);
    b.object(B, 32, 1, 1);
    b.object(TARGET, 32, 1, 0);
    b.reference(D);
    b.object(C, 32, 1, 1);
    b.object(D, 32, 1, 0);
    b.object(E, 32, 1, 0);
    b.reference(B);
    b.object(F, 32, 1, 1);
    b.reference(B);
    b.object(G, 32, 1, 1);
    b.dependent(E, TARGET);
    b.root(A, HeapSnapshotBuilder.STATIC_ROOT, "App.A");
    b.walkEnded();
    return b.build().orElseThrow();
  }

  private static long[] addresses(HeapSnapshot s, int[] path) {
    if (path == null) {
      return null;
    }
    long[] out = new long[path.length];
    for (int i = 0; i < path.length; i++) {
      out[i] = s.addressOf(path[i]);
    }
    return out;
  }

  @Test
  void eachStartGetsItsShortestPathAndWhatLedNowhereIsNotSearchedAgain() {
    HeapSnapshot s = graph();
    PathSearch search = new PathSearch(s, s.indexOf(TARGET));
    assertThat(addresses(s, search.pathFrom(s.indexOf(A)))).containsExactly(A, B, TARGET);
    assertThat(search.pathFrom(s.indexOf(C))).isNull();
    assertThat(search.pathFrom(s.indexOf(D))).isNull();
    // F meets B, which the first search found on a path: it ends there.
    assertThat(addresses(s, search.pathFrom(s.indexOf(F)))).containsExactly(F, B, TARGET);
    assertThat(addresses(s, search.pathFrom(s.indexOf(G)))).containsExactly(G, B, TARGET);
    assertThat(addresses(s, search.pathFrom(s.indexOf(TARGET)))).containsExactly(TARGET);
  }

  @Test
  void aDependentHandleIsAWayToo() {
    HeapSnapshot s = graph();
    PathSearch search = new PathSearch(s, s.indexOf(TARGET));
    assertThat(addresses(s, search.pathFrom(s.indexOf(E)))).containsExactly(E, TARGET);
  }

  @Test
  void anAddressThatIsNoObjectHasNoPath() {
    HeapSnapshot s = graph();
    PathSearch search = new PathSearch(s, s.indexOf(0x2000));
    assertThat(search.pathFrom(s.indexOf(A))).isNull();
    assertThat(new PathSearch(s, s.indexOf(TARGET)).pathFrom(-1)).isNull();
  }
}
