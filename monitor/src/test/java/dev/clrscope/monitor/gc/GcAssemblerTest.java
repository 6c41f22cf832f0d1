package dev.clrscope.monitor.gc;

import static org.assertj.core.api.Assertions.assertThat;

import dev.clrscope.nettrace.EventMetadata;
import dev.clrscope.nettrace.Guid;
import dev.clrscope.nettrace.NetTraceReader;
import dev.clrscope.nettrace.NetTraceWriter;
import dev.clrscope.nettrace.StackTrace;
import dev.clrscope.nettrace.TraceEvent;
import dev.clrscope.nettrace.TraceHeader;
import dev.clrscope.nettrace.events.RuntimeEvents;
import dev.clrscope.nettrace.events.RuntimePayload;
import dev.clrscope.nettrace.events.RuntimePayload.ClrInstance;
import dev.clrscope.nettrace.events.RuntimePayload.GcEnd;
import dev.clrscope.nettrace.events.RuntimePayload.GcGlobalHeapHistory;
import dev.clrscope.nettrace.events.RuntimePayload.GcHeapStats;
import dev.clrscope.nettrace.events.RuntimePayload.GcPerHeapHistory;
import dev.clrscope.nettrace.events.RuntimePayload.GcStart;
import dev.clrscope.nettrace.events.RuntimePayload.GenerationData;
import dev.clrscope.nettrace.events.RuntimePayload.SuspendEeBegin;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** Pairing GC events into per-GC records: a real .NET 10 trace, synthetic sequences, fixtures. */
class GcAssemblerTest {
  private final List<GcRecord> out = new ArrayList<>();
  private final GcAssembler gcs = new GcAssembler(out::add);

  // ---- a real trace

  /**
   * {@code net10-induced-gcs.nettrace}: the runtime provider, keyword GC at Informational, on
   * TargetApp (.NET 10.0.12, Linux x64, workstation GC) while it ran {@code churn 3 1000}, {@code
   * release}, {@code hold Widget 50000}, {@code churn 1 3000}: four induced gen2 GCs, #5 to #8.
   * {@code net10-induced-gcs.gcinfo.json} is what the app then read from {@code
   * GC.GetGCMemoryInfo(GCKind.Any)} about #8; the expected values below are copied from it.
   */
  @Test
  void aRealTraceGivesTheGcsTheRuntimeRecorded() throws IOException {
    try (InputStream in = resource("net10-induced-gcs.nettrace");
        NetTraceReader r = NetTraceReader.open(in)) {
      TraceEvent e;
      while ((e = r.next()) != null) {
        gcs.accept(e);
      }
    }
    gcs.finish();

    assertThat(out).extracting(GcRecord::number).containsExactly(5L, 6L, 7L, 8L);
    assertThat(out)
        .allSatisfy(
            g -> {
              assertThat(g.generation()).isEqualTo(2);
              assertThat(g.type()).isEqualTo("NonConcurrent");
              assertThat(g.reason()).isEqualTo("Induced");
              assertThat(g.condemnedGeneration()).isEqualTo(2);
              assertThat(g.condemnReasons().conditions()).containsExactly("induced_fullgc");
              assertThat(g.pauseMode()).isEqualTo("Interactive");
              assertThat(g.heaps()).hasSize(1);
              assertThat(g.pauseNanos()).isGreaterThan(g.durationNanos());
            });
    GcRecord last = out.get(3);
    // GCMemoryInfo: HeapSizeBytes, FragmentedBytes, PinnedObjectsCount, PromotedBytes,
    // GenerationInfo[0..4].SizeAfterBytes and the sum of SizeBeforeBytes.
    assertThat(last.heapSizeAfter()).isEqualTo(3224648);
    assertThat(last.fragmentation()).isEqualTo(399696);
    assertThat(last.pinnedObjects()).isEqualTo(1);
    assertThat(last.promoted()).isEqualTo(2824952);
    assertThat(last.sizeAfter()).isEqualTo(new GenerationSizes(560, 2006448, 291784, 917672, 8184));
    assertThat(last.heapSizeBefore()).isEqualTo(3048528L + 1264 + 2314048 + 917672 + 8184);
    // GCMemoryInfo.PauseDurations[0] was 4.217 ms; the events' SuspendEEBegin..RestartEEEnd is
    // slightly longer.
    assertThat(last.pauseMillis()).isBetween(4.217, 4.3);
    assertThat(last.globalMechanisms()).contains("Compaction", "Promotion");
    assertThat(last.heaps().get(0).compactReason()).isEqualTo("high_frag");
    // Four GC suspensions; the trace's other suspensions (no GC) are not GC pauses.
    assertThat(gcs.pauses()).isEqualTo(4);
    assertThat(gcs.pausedNanos()).isEqualTo(out.stream().mapToLong(GcRecord::pauseNanos).sum());
    assertThat(gcs.unfinishedGcs()).isZero();
  }

  /** The shared fixtures hold no GC events: the assembler reads them all and finds no GC. */
  @Test
  void fixtureTracesWithoutGcEventsGiveNoGcs() throws IOException {
    Path root = fixtures();
    List<Path> traces;
    try (Stream<Path> files = Files.walk(root)) {
      traces = files.filter(p -> p.toString().endsWith(".nettrace")).sorted().toList();
    }
    assertThat(traces).hasSizeGreaterThanOrEqualTo(3);
    for (Path p : traces) {
      long gcStarts = 0;
      try (NetTraceReader r = NetTraceReader.open(p)) {
        TraceEvent e;
        while ((e = r.next()) != null) {
          if (RuntimeEvents.RUNTIME_PROVIDER.equals(e.providerName()) && e.eventId() == 1) {
            gcStarts++;
          }
          gcs.accept(e);
        }
      }
      assertThat(gcStarts).as("GCStart events in %s", p).isZero();
    }
    gcs.finish();
    assertThat(out).isEmpty();
    assertThat(gcs.pausedNanos()).isZero();
  }

  // ---- synthetic sequences fed as decoded records

  @Test
  void aBlockingGcIsCompleteAtRestartWithItsPauseAndSizes() {
    suspend(1_000, 1);
    feed(8, 1_010, new ClrInstance(0));
    feed(1, 1_020, new GcStart(3, 1, 0, 0, 0, 0));
    feed(204, 1_030, perHeap(0, 2_000, 500));
    feed(205, 1_040, global(1, 0x6));
    feed(2, 1_100, new GcEnd(3, 1, 0));
    feed(4, 1_110, stats(100, 400));
    feed(7, 1_120, new ClrInstance(0));
    assertThat(out).as("not complete before the threads restart").isEmpty();
    feed(3, 1_150, new ClrInstance(0));

    assertThat(out).hasSize(1);
    GcRecord g = out.get(0);
    assertThat(g.number()).isEqualTo(3);
    assertThat(g.generation()).isEqualTo(1);
    assertThat(g.reason()).isEqualTo("AllocSmall");
    assertThat(g.type()).isEqualTo("NonConcurrent");
    assertThat(g.pauseNanos()).isEqualTo(150);
    assertThat(g.suspendNanos()).isEqualTo(10);
    assertThat(g.durationNanos()).isEqualTo(80);
    assertThat(g.heapSizeBefore()).isEqualTo(5 * 2_000);
    assertThat(g.heapSizeAfter()).isEqualTo(500);
    assertThat(g.sizeAfter()).isEqualTo(new GenerationSizes(100, 100, 100, 100, 100));
    assertThat(g.promoted()).isEqualTo(5 * 500);
    assertThat(g.fragmentation()).isEqualTo(5 * 30);
    assertThat(g.pinnedObjects()).isEqualTo(7);
    assertThat(g.condemnedGeneration()).isEqualTo(1);
    assertThat(g.globalMechanisms()).containsExactly("Compaction", "Promotion");
    // Heap 0 asked initial 1, final 1, budget 1 with low_ephemeral; the global adds max_gen1.
    assertThat(g.condemnReasons())
        .isEqualTo(new CondemnReasons(1, 1, 1, 0, List.of("low_ephemeral", "max_gen1")));
    assertThat(gcs.pausedNanos()).isEqualTo(150);
  }

  @Test
  void aBackgroundGcCollectsItsPausesAndAForegroundGcItsOwn() {
    suspend(0, 6);
    feed(8, 5, new ClrInstance(0));
    feed(1, 10, new GcStart(10, 2, 0, 1, 0, 0));
    feed(3, 50, new ClrInstance(0));
    // A foreground gen0 GC while the background GC marks.
    suspend(200, 1);
    feed(8, 210, new ClrInstance(0));
    feed(1, 220, new GcStart(11, 0, 0, 2, 0, 0));
    feed(204, 230, perHeap(0, 100, 10));
    feed(2, 240, new GcEnd(11, 0, 0));
    feed(4, 245, stats(1, 1));
    feed(3, 260, new ClrInstance(0));
    assertThat(out).extracting(GcRecord::number).containsExactly(11L);
    // The background GC's final suspension holds no GCStart.
    suspend(400, 1);
    feed(3, 420, new ClrInstance(0));
    feed(204, 480, perHeap(0, 1_000, 100));
    feed(2, 500, new GcEnd(10, 2, 0));
    feed(4, 510, stats(2, 2));

    assertThat(out).extracting(GcRecord::number).containsExactly(11L, 10L);
    assertThat(out.get(0).type()).isEqualTo("Foreground");
    assertThat(out.get(0).pauseNanos()).isEqualTo(60);
    assertThat(out.get(0).heapSizeBefore()).isEqualTo(500);
    assertThat(out.get(1).type()).isEqualTo("Background");
    assertThat(out.get(1).pauseNanos()).isEqualTo(50 + 20);
    assertThat(out.get(1).heapSizeBefore()).isEqualTo(5_000);
    assertThat(out.get(1).sizeAfter().gen0()).isEqualTo(2);
    assertThat(gcs.pausedNanos()).isEqualTo(130);
    assertThat(gcs.pauses()).isEqualTo(3);
  }

  @Test
  void aSuspensionForAnotherReasonIsNoGcPause() {
    suspend(0, 2);
    feed(3, 1_000, new ClrInstance(0));
    gcs.finish();
    assertThat(gcs.pausedNanos()).isZero();
    assertThat(out).isEmpty();
  }

  @Test
  void theEndOfTheStreamHandsOutEndedGcsAndCountsUnfinishedOnes() {
    feed(1, 10, new GcStart(1, 0, 0, 0, 0, 0));
    feed(2, 20, new GcEnd(1, 0, 0));
    feed(1, 30, new GcStart(2, 0, 0, 0, 0, 0));
    // #1 lacked heap statistics; a new GC starting settles it.
    assertThat(out).extracting(GcRecord::number).containsExactly(1L);
    assertThat(out.get(0).heapSizeAfter()).isNull();
    assertThat(out.get(0).pauseNanos()).isNull();
    gcs.finish();
    assertThat(out).hasSize(1);
    assertThat(gcs.unfinishedGcs()).isEqualTo(1);
  }

  @Test
  void anInducedGcCarriesItsClientSequenceNumber() {
    suspend(0, 1);
    feed(1, 10, new GcStart(4, 2, 1, 0, 0, 77));
    feed(2, 20, new GcEnd(4, 2, 0));
    feed(4, 21, stats(0, 0));
    feed(3, 30, new ClrInstance(0));
    assertThat(out.get(0).clientSequenceNumber()).isEqualTo(77);
    assertThat(out.get(0).reason()).isEqualTo("Induced");
    assertThat(out.get(0).isInduced()).isTrue();
  }

  // ---- the same through a written and re-read trace (event ids tell the shared payloads apart)

  @Test
  void eventsReadFromAWrittenTraceAssembleTheSame() {
    TraceHeader header =
        new TraceHeader(
            4, Instant.parse("2024-01-02T03:04:05Z"), 0, 1_000_000_000L, 8, 1, 2, 0, Map.of());
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (NetTraceWriter w = NetTraceWriter.create(bytes, header)) {
      int[] seq = {0};
      Writer write =
          (meta, ts, payload) ->
              w.writeEvent(
                  meta,
                  ++seq[0],
                  5,
                  5,
                  0,
                  ts,
                  Guid.EMPTY,
                  Guid.EMPTY,
                  StackTrace.EMPTY,
                  seq[0] == 1,
                  payload);
      write.event(meta(1, 9, 1), 1_000, le(b -> b.putInt(1).putInt(2).putShort((short) 0)));
      write.event(meta(2, 8, 1), 1_005, le(b -> b.putShort((short) 0)));
      write.event(
          meta(3, 1, 2),
          1_010,
          le(b -> b.putInt(9).putInt(2).putInt(1).putInt(0).putShort((short) 0).putLong(5)));
      write.event(meta(4, 2, 1), 1_090, le(b -> b.putInt(9).putInt(2).putShort((short) 0)));
      write.event(
          meta(5, 4, 2),
          1_095,
          le(
              b -> {
                for (int i = 0; i < 10; i++) {
                  b.putLong(i % 2 == 0 ? 1_000 * (i / 2 + 1) : 10);
                }
                b.putInt(3).putInt(0).putInt(0).putShort((short) 0).putLong(6_000).putLong(0);
              }));
      write.event(meta(6, 7, 1), 1_097, le(b -> b.putShort((short) 0)));
      write.event(meta(7, 3, 1), 1_100, le(b -> b.putShort((short) 0)));
    }
    try (NetTraceReader r = NetTraceReader.open(new ByteArrayInputStream(bytes.toByteArray()))) {
      TraceEvent e;
      while ((e = r.next()) != null) {
        gcs.accept(e);
      }
    }
    gcs.finish();
    assertThat(out).hasSize(1);
    GcRecord g = out.get(0);
    assertThat(g.number()).isEqualTo(9);
    assertThat(g.clientSequenceNumber()).isEqualTo(5);
    assertThat(g.pauseNanos()).isEqualTo(100);
    assertThat(g.suspendNanos()).isEqualTo(5);
    assertThat(g.sizeAfter()).isEqualTo(new GenerationSizes(1_000, 2_000, 3_000, 4_000, 6_000));
    assertThat(g.promoted()).as("GCHeapStats, without per-heap history").isEqualTo(40);
    assertThat(g.pinnedObjects()).isEqualTo(3);
    assertThat(g.startUtc()).isEqualTo(Instant.parse("2024-01-02T03:04:05.000001010Z"));
  }

  // ---- helpers

  private interface Writer {
    void event(EventMetadata meta, long timestamp, byte[] payload);
  }

  private static EventMetadata meta(int metadataId, int eventId, int version) {
    return new EventMetadata(
        metadataId, RuntimeEvents.RUNTIME_PROVIDER, eventId, "", 1, version, 4, 0, List.of());
  }

  private static byte[] le(java.util.function.Consumer<ByteBuffer> body) {
    ByteBuffer b = ByteBuffer.allocate(256).order(ByteOrder.LITTLE_ENDIAN);
    body.accept(b);
    byte[] a = new byte[b.position()];
    b.flip().get(a);
    return a;
  }

  private void feed(int id, long nanos, RuntimePayload p) {
    gcs.accept(id, nanos, Instant.EPOCH.plusNanos(nanos), p);
  }

  private void suspend(long nanos, long reason) {
    feed(9, nanos, new SuspendEeBegin(reason, 0, 0));
  }

  /** Every generation: {@code before} bytes before, {@code survived} survived, 30 bytes free. */
  private static GcPerHeapHistory perHeap(int heap, long before, long survived) {
    List<GenerationData> gens = new ArrayList<>();
    for (int g = 0; g < 5; g++) {
      gens.add(new GenerationData(before, 0, 0, survived, 10, 20, 0, survived, 0, 9_999));
    }
    // CondemnReasons0: initial 1, final 1, budget 1; CondemnReasons1: low_ephemeral (bit 4).
    return new GcPerHeapHistory(0, 0, 0, 0, 0, 0, 0, 0, 0b01_01_01, 1 << 4, 0, 0, heap, 0, gens);
  }

  /** Condemned generation {@code gen}; conditions max_gen1 (bit 11). */
  private static GcGlobalHeapHistory global(long gen, long mechanisms) {
    return new GcGlobalHeapHistory(0, 1, gen, 0, 0, mechanisms, 0, 1, 10, 0, 1 << 11, List.of());
  }

  /** Each generation {@code size} bytes, promoted {@code promoted} each; 7 pinned objects. */
  private static GcHeapStats stats(long size, long promoted) {
    return new GcHeapStats(
        size, promoted, size, promoted, size, promoted, size, promoted, 0, 0, 7, 0, 0, 0, size,
        promoted);
  }

  private static InputStream resource(String name) {
    InputStream in = GcAssemblerTest.class.getResourceAsStream(name);
    assertThat(in).as("test resource %s", name).isNotNull();
    return in;
  }

  /** Walks up from the working directory to shared/fixtures; fails (never skips) without it. */
  static Path fixtures() {
    Path dir = Path.of(System.getProperty("user.dir")).toAbsolutePath();
    for (Path p = dir; p != null; p = p.getParent()) {
      Path candidate = p.resolve("shared").resolve("fixtures");
      if (Files.isDirectory(candidate)) {
        return candidate;
      }
    }
    throw new AssertionError("shared/fixtures not found above " + dir + " (tests must not skip)");
  }
}
