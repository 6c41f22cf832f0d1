package dev.clrscope.bench;

import dev.clrscope.dac.DacOptions;
import dev.clrscope.dac.DacSession;
import dev.clrscope.dac.RootPath;
import dev.clrscope.heapwalk.HeapSnapshot;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * Where the first {@code gcroot} of a core's session goes: opening the core, the exact snapshot
 * (roots, the walk with every reference, the graph) and the search, each in wall and process CPU
 * time, in a fresh session per pass (the first pass is the one a whole process pays, before the
 * compiler has caught up).
 *
 * <p>{@code SnapshotTiming CORE ADDRESS [PASSES] [stat]}: ADDRESS in hex; {@code stat} times a bare
 * walk ({@code dumpheap -stat}'s) in each session too, before the snapshot.
 */
public final class SnapshotTiming {
  private SnapshotTiming() {}

  public static void main(String[] args) {
    Path core = Path.of(args[0]);
    long address = Long.parseUnsignedLong(args[1].replace("0x", ""), 16);
    int passes = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    boolean stat = args.length > 3 && args[3].equals("stat");
    for (int p = 1; p <= passes; p++) {
      Clock c = new Clock();
      try (DacSession s = DacSession.openCore(core, DacOptions.defaults().withSymbolServer(null))) {
        s.heap();
        String open = c.lap();
        String walk = "";
        if (stat) {
          s.heap().statistics();
          walk = ", bare walk " + c.lap();
        }
        HeapSnapshot snapshot = s.heap().snapshot();
        String built = c.lap();
        List<RootPath> paths = s.heap().rootPaths(address, 100, false);
        String searched = c.lap();
        System.out.printf(
            Locale.ROOT,
            "pass %d: open %s%s, snapshot %s (%,d objects, %,d references), gcroot %s (%d paths)%n",
            p,
            open,
            walk,
            built,
            snapshot.objectCount(),
            snapshot.referenceCount(),
            searched,
            paths.size());
      }
    }
  }

  /** Wall and process CPU time between laps. */
  private static final class Clock {
    private final com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    private long wall = System.nanoTime();
    private long cpu = os.getProcessCpuTime();

    String lap() {
      long w = System.nanoTime();
      long u = os.getProcessCpuTime();
      String s =
          String.format(Locale.ROOT, "%.0f ms (CPU %.0f)", (w - wall) / 1e6, (u - cpu) / 1e6);
      wall = w;
      cpu = u;
      return s;
    }
  }
}
