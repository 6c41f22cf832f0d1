package dev.clrscope.cli.commands.analyze;

import dev.clrscope.cli.render.Report;
import dev.clrscope.dac.ClrHeap;
import dev.clrscope.dac.RootPath;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * {@code paths ADDR}: the shortest path from each root that keeps an object alive, as {@code
 * gcroot} finds them, weak handles left out unless {@code -weak} (they keep nothing alive), at most
 * {@code -max N}.
 */
final class Paths extends SosCommand {
  static final int DEFAULT_MAX = 10;

  Paths() {
    super(
        "paths",
        List.of(),
        "paths [-weak] [-max N] ADDR",
        "The shortest path of objects from each root that keeps an object alive, nearest roots"
            + " first; weak handles only with -weak; at most "
            + DEFAULT_MAX
            + " without -max",
        SosArgs.Spec.of(Set.of("-weak"), Set.of("-max"), 1, 1));
  }

  @Override
  void run(AnalyzeContext context, SosArgs args) {
    int max = args.countOption("-max", 1, DEFAULT_MAX);
    ClrHeap p = context.heap();
    long address = args.address(0);
    context.heapGraph();
    List<GcRoot.Path> rows = new ArrayList<>();
    for (RootPath rp : p.rootPaths(address, max, args.has("-weak"))) {
      rows.add(GcRoot.Path.of(p, rp));
    }
    rows.sort(java.util.Comparator.comparingInt((GcRoot.Path r) -> r.steps().size()));
    context.show(
        Report.builder()
            .rows(null, null, GcRoot.PATH, rows, GcRoot.Path::lines)
            .note(
                rows.isEmpty()
                    ? "No root keeps 0x"
                        + Long.toHexString(address)
                        + " alive"
                        + (args.has("-weak") ? "." : " (weak handles left out: -weak).")
                    : rows.size() + " path" + (rows.size() == 1 ? "" : "s") + ", shortest first.")
            .build());
  }
}
