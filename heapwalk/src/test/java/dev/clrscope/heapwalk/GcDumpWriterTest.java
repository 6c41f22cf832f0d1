package dev.clrscope.heapwalk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clrscope.nettrace.NetTraceReader;
import dev.clrscope.nettrace.TraceEvent;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Written .gcdump files read back with every type's count, size and retained size intact. */
class GcDumpWriterTest {
  static HeapSnapshot liveWalk() throws Exception {
    Path trace = Path.of(GcDumpWriterTest.class.getResource("/heap-walk.nettrace").toURI());
    HeapSnapshotBuilder b = new HeapSnapshotBuilder();
    try (NetTraceReader r = NetTraceReader.open(trace)) {
      TraceEvent e;
      while ((e = r.next()) != null) {
        b.accept(e);
      }
    }
    return b.build().orElseThrow();
  }

  static byte[] write(HeapSnapshot s) throws Exception {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    GcDumpWriter.write(
        s, new GcDumpWriter.About("TargetApp", 1234, 638_000_000_000_000_000L, true), out);
    return out.toByteArray();
  }

  /**
   * A file begun before the walk's modules were known ({@link GcDumpWriter#prepare}) and finished
   * once they came is, byte for byte, the file written from the finished snapshot, whatever was
   * encoded ahead: nothing, part of the objects, or everything after the type table.
   */
  @Test
  void aFileBegunWhileTheSessionEndsIsTheSameFile() throws Exception {
    HeapSnapshot file = GcDumpReader.read(FixtureWalks.fixture("generic.gcdump"));
    List<TraceEvent> events =
        FixtureWalks.events(FixtureWalks.nodesOf(file), FixtureWalks.rootsOf(file), 3);
    GcDumpWriter.About about =
        new GcDumpWriter.About("TargetApp", 1234, 638_000_000_000_000_000L, true);
    for (long budget : new long[] {0, 1, 5_000, 20_000, Long.MAX_VALUE}) {
      HeapSnapshotBuilder b = new HeapSnapshotBuilder();
      int i = 0;
      while (!b.isComplete()) {
        b.accept(events.get(i++));
      }
      HeapSnapshot graph = b.graph().orElseThrow();
      GcDumpWriter.Prepared prepared = GcDumpWriter.prepare(graph, budget, () -> true);
      // At most a batch of nodes past the budget; everything after the type table at most.
      assertThat(prepared.encodedAhead())
          .isLessThanOrEqualTo(Math.min(budget, 1L << 40) + (1 << 16));
      if (budget == 0) {
        assertThat(prepared.encodedAhead()).isZero();
      }
      for (; i < events.size(); i++) {
        b.accept(events.get(i));
      }
      HeapSnapshot complete = b.complete(graph);
      assertThat(prepared.isFor(complete)).isTrue();
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      prepared.write(complete, about, out);
      ByteArrayOutputStream whole = new ByteArrayOutputStream();
      GcDumpWriter.write(complete, about, whole);
      assertThat(out.toByteArray()).as("budget %d", budget).isEqualTo(whole.toByteArray());
      assertThat(prepared.isFor(complete)).isFalse();
      // The modules the rundown sent after the graph was built are in the file.
      assertThat(GcDumpReader.parse(out.toByteArray()).moduleOf("ChainNode"))
          .hasValue(SyntheticWalk.MODULE_FILE);
    }
  }

  @Test
  void aWalkWrittenAndReadBackKeepsEveryTypesFigures() throws Exception {
    HeapSnapshot walked = liveWalk();
    HeapSnapshot again = GcDumpReader.parse(write(walked));
    List<TypeStatistics> before = walked.typeStatistics();
    List<TypeStatistics> after = again.typeStatistics();
    assertThat(after).containsExactlyInAnyOrderElementsOf(before);
    assertThat(again.totalSize()).isEqualTo(walked.totalSize());
    assertThat(
            again.pathsTo(t -> t.equals("TargetApp.Widget"), 1).get(0).stream()
                .map(HeapSnapshot.PathStep::type))
        .contains(
            "[static vars]",
            "[static var System.Collections.Generic.List<TargetApp.Widget>.Held]",
            "System.Collections.Generic.List<TargetApp.Widget>",
            "TargetApp.Widget");
  }

  @Test
  void everyObjectAndReferenceOfAWalkComesBackFromItsFile() throws Exception {
    HeapSnapshot walked = liveWalk();
    HeapSnapshot again = GcDumpReader.parse(write(walked));
    // The file's node 0 is UNDEFINED, then the objects in order, then the roots' groups.
    assertThat(again.typeNameOf(0)).isEqualTo("UNDEFINED");
    int n = walked.objectCount();
    for (int i = 0; i < n; i++) {
      int j = i + 1;
      assertThat(again.addressOf(j)).as("object %d's address", i).isEqualTo(walked.addressOf(i));
      assertThat(again.sizeOf(j)).as("object %d's size", i).isEqualTo(walked.sizeOf(i));
      assertThat(again.typeNameOf(j)).as("object %d's type", i).isEqualTo(walked.typeNameOf(i));
      int[] references = walked.referencesOf(i);
      for (int k = 0; k < references.length; k++) {
        references[k]++;
      }
      assertThat(again.referencesOf(j)).as("object %d's references", i).isEqualTo(references);
    }
    // Every root's object is under a root group, and nothing else is a child of the groups.
    long rootedObjects = 0;
    for (int g = n + 1; g < again.objectCount(); g++) {
      assertThat(again.sizeOf(g)).isZero();
      assertThat(again.typeNameOf(g)).startsWith("[");
      for (int c : again.referencesOf(g)) {
        if (c <= n) {
          rootedObjects++;
        }
      }
    }
    assertThat(rootedObjects).isEqualTo(walked.rootReferences().length);
    assertThat(again.unreachableCount()).isZero();
  }

  @Test
  void aFileReadAndWrittenAgainIsTheSameGraph() throws Exception {
    HeapSnapshot once = GcDumpReader.parse(write(liveWalk()));
    HeapSnapshot twice = GcDumpReader.parse(write(once));
    assertThat(twice.typeStatistics()).containsExactlyInAnyOrderElementsOf(once.typeStatistics());
  }

  @Test
  void compressedIntegersRoundTripAtEveryLength() {
    int[] values = {
      0,
      1,
      -1,
      63,
      -64,
      64,
      -65,
      8191,
      -8192,
      8192,
      1 << 20,
      -(1 << 20),
      (1 << 27) - 1,
      -(1 << 27),
      1 << 27,
      Integer.MAX_VALUE,
      Integer.MIN_VALUE
    };
    for (int v : values) {
      GcDumpWriter.Record b = new GcDumpWriter.Record();
      GcDumpWriter.cint(b, v);
      byte[] bytes = java.util.Arrays.copyOf(b.bytes, b.length);
      // Decoded as the reader does.
      int x = bytes[0];
      int value = (x << 25) >> 25;
      int n = 1;
      while ((x & 0x80) != 0) {
        x = bytes[n++];
        if (n == 5) {
          value = (value << 7) + (x & 0xFF);
          break;
        }
        value = (value << 7) + (x & 0x7F);
      }
      assertThat(value).as("%d in %d bytes", v, bytes.length).isEqualTo(v);
      assertThat(n).isEqualTo(bytes.length);
    }
  }
}
