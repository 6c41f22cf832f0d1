package dev.clrscope.bench;

import dev.clrscope.heapwalk.HeapSnapshot;
import dev.clrscope.heapwalk.HeapSnapshotBuilder;
import dev.clrscope.nettrace.NetTraceReader;
import dev.clrscope.nettrace.TraceEvent;
import dev.clrscope.nettrace.events.RuntimeEvents;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Where the time of taking in a heap walk goes, on a recorded walk ({@code clrscope trace collect
 * --providers Microsoft-Windows-DotNETRuntime:0x1980001:4 --rundown false -o FILE}): reading the
 * events, decoding their payloads, and the builder (events into columns, then the graph).
 *
 * <p>{@code HeapWalkTiming FILE [PASSES]}.
 */
public final class HeapWalkTiming {
  private HeapWalkTiming() {}

  public static void main(String[] args) throws IOException {
    Path file = Path.of(args[0]);
    int passes = args.length > 1 ? Integer.parseInt(args[1]) : 3;
    for (int p = 0; p < passes; p++) {
      long t0 = System.nanoTime();
      long events = 0;
      try (NetTraceReader r = NetTraceReader.open(file)) {
        while (r.next() != null) {
          events++;
        }
      }
      long t1 = System.nanoTime();
      try (NetTraceReader r = NetTraceReader.open(file)) {
        TraceEvent e;
        while ((e = r.next()) != null) {
          RuntimeEvents.decode(e);
        }
      }
      long t2 = System.nanoTime();
      HeapSnapshotBuilder b = new HeapSnapshotBuilder();
      try (NetTraceReader r = NetTraceReader.open(file)) {
        TraceEvent e;
        while ((e = r.next()) != null) {
          b.accept(e);
        }
      }
      long t3 = System.nanoTime();
      HeapSnapshot s = b.build().orElseThrow();
      long t4 = System.nanoTime();
      s.typeStatistics();
      long t5 = System.nanoTime();
      System.out.printf(
          Locale.ROOT,
          "pass %d: %,d events; read %.2f s, read+decode %.2f s, read+builder %.2f s, build %.2f"
              + " s, type statistics %.2f s (%,d objects)%n",
          p + 1,
          events,
          (t1 - t0) / 1e9,
          (t2 - t1) / 1e9,
          (t3 - t2) / 1e9,
          (t4 - t3) / 1e9,
          (t5 - t4) / 1e9,
          s.objectCount());
    }
  }
}
