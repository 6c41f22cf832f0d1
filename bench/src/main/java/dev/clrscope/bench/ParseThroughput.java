package dev.clrscope.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Plain timing of whole-file passes, with the peak heap of each pass (sum of the heap pools' peak
 * usage, reset before the pass: an upper bound). Run with {@code -Xmx64m} to prove the bound.
 *
 * <p>{@code ParseThroughput [FILE [PASSES [MODE...]]]}, modes HEADERS, TYPED, FIELDS (default all).
 */
public final class ParseThroughput {
  private ParseThroughput() {}

  public static void main(String[] args) {
    Path file =
        TraceGenerator.ensure(
            Path.of(args.length > 0 ? args[0] : Bench.DEFAULT_TRACE), Bench.MIN_BYTES);
    int passes = args.length > 1 ? Integer.parseInt(args[1]) : 5;
    Decoding[] modes = Decoding.values();
    if (args.length > 2) {
      modes = new Decoding[args.length - 2];
      for (int i = 2; i < args.length; i++) {
        modes[i - 2] = Decoding.valueOf(args[i].toUpperCase(Locale.ROOT));
      }
    }
    long bytes;
    try {
      bytes = Files.size(file);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    System.out.printf(
        Locale.ROOT,
        "file %s, %.1f MB, max heap %d MB, %s%n",
        file,
        bytes / 1e6,
        Runtime.getRuntime().maxMemory() >> 20,
        System.getProperty("java.vm.name") + " " + System.getProperty("java.version"));
    for (Decoding mode : modes) {
      mode.run(file); // warm-up pass
      for (int p = 0; p < passes; p++) {
        resetPeaks();
        long gcs = gcCount();
        long t0 = System.nanoTime();
        Decoding.Pass pass = mode.run(file);
        double s = (System.nanoTime() - t0) / 1e9;
        System.out.printf(
            Locale.ROOT,
            "%-8s pass %d: %,d events in %.3f s = %.2f M events/s, %.1f MB/s, peak heap %.1f MB,"
                + " %d GCs (checksum %d)%n",
            mode,
            p + 1,
            pass.events(),
            s,
            pass.events() / s / 1e6,
            bytes / s / 1e6,
            peakHeap() / 1048576.0,
            gcCount() - gcs,
            pass.checksum());
      }
    }
  }

  private static void resetPeaks() {
    for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
      if (p.getType() == MemoryType.HEAP) {
        p.resetPeakUsage();
      }
    }
  }

  private static long peakHeap() {
    long sum = 0;
    for (MemoryPoolMXBean p : ManagementFactory.getMemoryPoolMXBeans()) {
      if (p.getType() == MemoryType.HEAP) {
        sum += p.getPeakUsage().getUsed();
      }
    }
    return sum;
  }

  private static long gcCount() {
    long n = 0;
    for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
      n += Math.max(0, gc.getCollectionCount());
    }
    return n;
  }
}
