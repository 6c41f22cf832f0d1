package dev.clrscope.heapwalk;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clrscope.nettrace.NetTraceReader;
import dev.clrscope.nettrace.TraceEvent;
import dev.clrscope.nettrace.events.RuntimeEvents;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * The heap walk the .NET 10 runtime wrote for TargetApp holding 5,000 Widgets of 40 bytes ({@code
 * heap-walk.nettrace}: {@code clrscope trace collect --providers
 * Microsoft-Windows-DotNETRuntime:0x1980001:4 --rundown false} while it held them), whole and with
 * events cut out: lost events are said, never turned silently into a wrong graph.
 */
class HeapSnapshotBuilderTest {
  private static List<TraceEvent> events() throws Exception {
    Path trace = Path.of(HeapSnapshotBuilderTest.class.getResource("/heap-walk.nettrace").toURI());
    List<TraceEvent> all = new ArrayList<>();
    try (NetTraceReader r = NetTraceReader.open(trace)) {
      TraceEvent e;
      while ((e = r.next()) != null) {
        all.add(e);
      }
    }
    return all;
  }

  private static HeapSnapshotBuilder feed(List<TraceEvent> events) {
    HeapSnapshotBuilder b = new HeapSnapshotBuilder();
    events.forEach(b::accept);
    return b;
  }

  /** The events without the {@code nth} (from 0) of runtime event {@code id}. */
  private static List<TraceEvent> without(List<TraceEvent> events, int id, int nth) {
    List<TraceEvent> kept = new ArrayList<>();
    int seen = 0;
    for (TraceEvent e : events) {
      boolean match = RuntimeEvents.RUNTIME_PROVIDER.equals(e.providerName()) && e.eventId() == id;
      if (match && seen++ == nth) {
        continue;
      }
      kept.add(e);
    }
    return kept;
  }

  private static TypeStatistics widgets(HeapSnapshot s) {
    Predicate<TypeStatistics> widget = t -> t.type().equals("TargetApp.Widget");
    return s.typeStatistics().stream().filter(widget).findFirst().orElseThrow();
  }

  @Test
  void theWholeWalkCountsEveryObjectAndReference() throws Exception {
    HeapSnapshotBuilder b = feed(events());
    assertThat(b.isComplete()).isTrue();
    HeapSnapshot s = b.build().orElseThrow();
    assertThat(s.problems()).isEmpty();
    TypeStatistics w = widgets(s);
    assertThat(w.count()).isEqualTo(5000);
    assertThat(w.totalSize()).isEqualTo(200_000);
    // A Widget holds only a shared string literal: each retains itself alone.
    assertThat(w.retainedSize()).isEqualTo(200_000);
    // The list's array holds every Widget, and nothing else holds them; nor their shared label,
    // the literal "widget" (34 bytes: header, method table, length, 6 UTF-16 chars, terminator).
    TypeStatistics arrays =
        s.typeStatistics().stream()
            .filter(t -> t.type().equals("TargetApp.Widget[]"))
            .findFirst()
            .orElseThrow();
    assertThat(arrays.retainedSize()).isEqualTo(arrays.totalSize() + 200_000 + 34);
    assertThat(s.unreachableCount()).isZero();
    long references = 0;
    for (int i = 0; i < s.objectCount(); i++) {
      references += s.referencesOf(i).length;
    }
    assertThat(references).isEqualTo(s.referenceCount()).isPositive();
    assertThat(s.rootCount()).isPositive();
    assertThat(s.typeStatistics().get(0).retainedSize())
        .isGreaterThanOrEqualTo(s.typeStatistics().get(1).retainedSize());
  }

  @Test
  void aLostObjectEventIsSaidAndTheReferencesAreNotTrusted() throws Exception {
    HeapSnapshot s = feed(without(events(), 18, 1)).build().orElseThrow();
    assertThat(s.problems())
        .anyMatch(p -> p.equals("GCBulkNode events 1 to 1 were lost (the next one is 2)"))
        .anyMatch(p -> p.contains("references but") && p.contains("the references are left out"));
    // No reference is attached to an object by a count that no longer lines up: none is kept.
    assertThat(s.referenceCount()).isZero();
    assertThat(s.pathsTo(t -> t.equals("TargetApp.Widget"), 1).get(0)).hasSize(2);
  }

  @Test
  void aLostReferenceEventIsSaid() throws Exception {
    HeapSnapshot s = feed(without(events(), 19, 0)).build().orElseThrow();
    assertThat(s.problems())
        .anyMatch(p -> p.equals("GCBulkEdge events 0 to 0 were lost (the next one is 1)"))
        .anyMatch(p -> p.contains("references but"));
    assertThat(s.referenceCount()).isZero();
    // The objects themselves all arrived: their counts and sizes stay exact.
    assertThat(widgets(s).count()).isEqualTo(5000);
    assertThat(widgets(s).totalSize()).isEqualTo(200_000);
  }

  @Test
  void aWalkWhoseGcNeverEndedIsSaidToBeIncomplete() throws Exception {
    HeapSnapshotBuilder b = feed(without(events(), 2, 0));
    assertThat(b.isComplete()).isFalse();
    assertThat(b.build().orElseThrow().problems())
        .anyMatch(p -> p.contains("was not seen: the walk may be incomplete"));
  }

  @Test
  void noWalkAtAllBuildsNothing() throws Exception {
    assertThat(feed(without(events(), 1, 0)).build()).isEmpty();
  }
}
