package dev.clrscope.cli.commands.analyze;

import dev.clrscope.cli.commands.heap.DumpHeapRootsCommand;
import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.dac.ClrHeap;
import dev.clrscope.dac.RootKind;
import dev.clrscope.dac.RootPath;
import dev.clrscope.dac.TargetException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/** {@code gcroot ADDR}: the paths by which roots keep an object alive. */
final class GcRoot extends SosCommand {
  /** Paths shown without {@code -all}. */
  static final int DEFAULT_PATHS = 100;

  GcRoot() {
    super(
        "gcroot",
        List.of(),
        "gcroot [-all] [-nostacks] ADDR",
        "Every root that keeps an object alive, each with a shortest path of objects to it:"
            + " static fields by name, thread-statics by thread, stack slots by thread and method,"
            + " handles by kind (at most "
            + DEFAULT_PATHS
            + " without -all)",
        SosArgs.Spec.of(Set.of("-all", "-nostacks"), Set.of(), 1, 1));
  }

  /** An object on a path. */
  record Step(long address, String type) {}

  /** A path from a root. */
  record Path(RootPath path, List<Step> steps) {
    /** The path's objects with their types, read from {@code p}. */
    static Path of(ClrHeap p, RootPath path) {
      List<Step> steps = new ArrayList<>();
      for (long a : path.objects()) {
        steps.add(new Step(a, typeName(p, a)));
      }
      return new Path(path, steps);
    }

    List<String> lines() {
      List<String> lines = new ArrayList<>();
      for (Step s : steps) {
        lines.add("-> 0x" + Long.toHexString(s.address()) + " " + s.type());
      }
      return lines;
    }
  }

  private static final RecordSchema<Step> STEP =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("address", "ADDRESS", 0, Unit.ADDRESS, Step::address),
              Field.of("type", "TYPE", 0, Unit.TEXT, Step::type)));

  static final RecordSchema<Path> PATH =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("root", "ROOT", 0, Unit.TEXT, (Path p) -> p.path().root().describe()),
              Field.of("kind", "KIND", 0, Unit.TEXT, (Path p) -> p.path().root().kind().label()),
              Field.of(
                      "thread",
                      "THREAD",
                      0,
                      Unit.ID,
                      (Path p) ->
                          p.path().root().osThreadId() == 0 ? null : p.path().root().osThreadId())
                  .optional()
                  .only(Field.Shown.DATA),
              Field.of(
                      "rootAddress",
                      "AT",
                      0,
                      Unit.ADDRESS,
                      (Path p) ->
                          p.path().root().location() == 0 ? null : p.path().root().location())
                  .optional()
                  .only(Field.Shown.DATA),
              Field.of("steps", "OBJECTS", 0, Unit.COUNT, (Path p) -> p.steps().size()),
              Field.<Path>data(
                      "pathText",
                      Unit.WORDS,
                      p ->
                          p.steps().stream()
                              .map(s -> DumpHeapRootsCommand.stepText(s.type(), s.address()))
                              .toList())
                  .only(Field.Shown.CSV),
              Field.nested("path", STEP, Path::steps)));

  @Override
  void run(AnalyzeContext context, SosArgs args) {
    ClrHeap p = context.heap();
    long address = args.address(0);
    // The paths are searched on the session's graph: read (once) here, so that a graph of part of
    // the heap is said.
    context.heapGraph();
    boolean noStacks = args.has("-nostacks");
    int shown = args.has("-all") ? Integer.MAX_VALUE : DEFAULT_PATHS;
    // Without stacks, every path is asked for: the first ones may all start on a stack.
    int max = noStacks ? Integer.MAX_VALUE : shown;
    List<Path> rows = new ArrayList<>();
    for (RootPath rp : p.rootPaths(address, max, false)) {
      if (noStacks && rp.root().kind() == RootKind.STACK) {
        continue;
      }
      if (rows.size() >= shown) {
        break;
      }
      rows.add(Path.of(p, rp));
    }
    context.show(
        Report.builder()
            .rows(null, null, PATH, rows, Path::lines)
            .note(
                rows.isEmpty()
                    ? "Found no root that keeps 0x" + Long.toHexString(address) + " alive."
                    : "Found " + rows.size() + " root" + (rows.size() == 1 ? "" : "s") + ".")
            .build());
  }

  /** The type of the object at {@code address}, or null when it is 0 or no object. */
  static String typeNameOrNull(ClrHeap p, long address) {
    if (address == 0) {
      return null;
    }
    try {
      return p.object(address).type().name();
    } catch (TargetException e) {
      return null;
    }
  }

  static String typeName(ClrHeap p, long address) {
    String t = typeNameOrNull(p, address);
    return t == null ? "?" : t;
  }
}
