package dev.clrscope.bench;

import dev.clrscope.heapwalk.GcDumpWriter;
import dev.clrscope.heapwalk.HeapSnapshot;
import dev.clrscope.heapwalk.HeapSnapshotBuilder;
import dev.clrscope.nettrace.NetTraceReader;
import dev.clrscope.nettrace.TraceEvent;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * What {@code dump-heap collect} does after the runtime's walk has come, on a recorded walk ({@code
 * clrscope trace collect --providers Microsoft-Windows-DotNETRuntime:0x1980001:4 --rundown false
 * --buffersize 1024 -o FILE}), in a fresh JVM as collect runs it (the launcher's flags for collect:
 * {@code -XX:+UseSerialGC -XX:PretenureSizeThreshold=1m -XX:TieredStopAtLevel=1}): the events read
 * in each block's order into the builder, the graph resolved, the .gcdump written. Each phase's
 * wall and CPU time (the process's), so that a change is measured without a target, its walk and
 * its socket.
 *
 * <p>{@code CollectTiming WALK.nettrace OUT.gcdump}.
 */
public final class CollectTiming {
  private CollectTiming() {}

  public static void main(String[] args) throws IOException {
    Path file = Path.of(args[0]);
    Path out = Path.of(args[1]);
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long w0 = System.nanoTime();
    long c0 = os.getProcessCpuTime();
    HeapSnapshotBuilder b = new HeapSnapshotBuilder();
    try (InputStream in = Files.newInputStream(file);
        NetTraceReader r = NetTraceReader.openLive(in, true)) {
      TraceEvent e;
      while ((e = r.next()) != null) {
        b.accept(e);
      }
    }
    long w1 = System.nanoTime();
    long c1 = os.getProcessCpuTime();
    HeapSnapshot graph = b.graph().orElseThrow();
    long w2 = System.nanoTime();
    long c2 = os.getProcessCpuTime();
    HeapSnapshot s = b.complete(graph);
    try (OutputStream o = new BufferedOutputStream(Files.newOutputStream(out), 1 << 16)) {
      GcDumpWriter.write(s, new GcDumpWriter.About("walk", 1, 0, true), o);
    }
    long w3 = System.nanoTime();
    long c3 = os.getProcessCpuTime();
    System.out.printf(
        Locale.ROOT,
        "%,d objects: read+builder %d ms (CPU %d), graph %d ms (CPU %d), file %d ms (CPU %d),"
            + " all %d ms (CPU %d)%n",
        s.objectCount(),
        (w1 - w0) / 1_000_000,
        (c1 - c0) / 1_000_000,
        (w2 - w1) / 1_000_000,
        (c2 - c1) / 1_000_000,
        (w3 - w2) / 1_000_000,
        (c3 - c2) / 1_000_000,
        (w3 - w0) / 1_000_000,
        (c3 - c0) / 1_000_000);
  }
}
