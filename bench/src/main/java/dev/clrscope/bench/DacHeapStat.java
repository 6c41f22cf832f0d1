package dev.clrscope.bench;

import dev.clrscope.dac.DacOptions;
import dev.clrscope.dac.DacSession;
import dev.clrscope.dac.HeapStatistics;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;

/**
 * {@code dumpheap -stat} through the analyze model, for bench/analyze.sh until the {@code analyze}
 * command exists: {@code DacHeapStat CORE} or {@code DacHeapStat -p PID} prints the per-type table
 * as dotnet-dump does (method table, count, total size, name; by total size) and its total line; on
 * stderr how long the walk took and, for a process, how long it was paused.
 */
public final class DacHeapStat {
  private DacHeapStat() {}

  public static void main(String[] args) {
    DacOptions options = DacOptions.defaults().withSymbolServer(null);
    long started = System.nanoTime();
    DacSession p =
        args[0].equals("-p")
            ? DacSession.attach(Integer.parseInt(args[1]), options)
            : DacSession.openCore(Path.of(args[0]), options);
    HeapStatistics stats;
    try (p) {
      stats = p.heap().statistics();
    }
    long ended = System.nanoTime();
    PrintStream out = System.out;
    out.println("Statistics:");
    out.printf(Locale.ROOT, "%16s %10s %14s %s%n", "MT", "Count", "TotalSize", "Class Name");
    long objects = 0;
    long bytes = 0;
    for (HeapStatistics.TypeStat s : stats.bySize()) {
      out.printf(
          Locale.ROOT,
          "%16x %,10d %,14d %s%n",
          s.type().methodTable(),
          s.count(),
          s.totalSize(),
          s.type().name());
      objects += s.count();
      bytes += s.totalSize();
    }
    out.printf(Locale.ROOT, "Total %,d objects, %,d bytes%n", objects, bytes);
    System.err.printf(
        Locale.ROOT,
        "walk %.0f ms, open to close %.0f ms%s%n",
        stats.walk().elapsedNanos() / 1e6,
        (ended - started) / 1e6,
        p.isLive()
            ? String.format(Locale.ROOT, ", paused %.0f ms", p.paused().toNanos() / 1e6)
            : "");
  }
}
