package dev.clrscope.cli.commands.heap;

import dev.clrscope.cli.options.FormatOption;
import dev.clrscope.cli.options.TopOption;
import dev.clrscope.cli.options.TypeRegex;
import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Result;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.heapwalk.HeapSnapshot;
import dev.clrscope.heapwalk.HeapSnapshot.PathStep;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code clrscope dump-heap roots}: why objects are alive, as the shortest path from a GC root (a
 * static field by name, a stack, a handle, the finalizer queue) to them.
 */
@Command(
    name = "roots",
    mixinStandardHelpOptions = true,
    description = {
      "Walk the managed heap (one forced full GC), or read a heap FILE (a .gcdump), and print, for"
          + " objects of the types asked for,"
          + " the shortest path from a GC root to each: the root (a static field by name, a"
          + " stack, a handle, the finalizer queue), then every object on the way."
    })
public final class DumpHeapRootsCommand extends HeapCommand {
  @Mixin FormatOption format;

  /** How many paths. */
  @Mixin TopOption top;

  /** The name this option had: {@code --top} now, as in every command. */
  @Option(names = "--max", hidden = true, paramLabel = "N")
  Integer max;

  @Option(
      names = "--type",
      paramLabel = "REGEX",
      required = true,
      description = "The objects to explain: types whose name contains a match of REGEX.")
  String typeFilter;

  private TypeRegex typePattern;

  /** A shortest path from a root: the root, then every object on the way, the last the target. */
  private record RootPath(String root, List<PathStep> steps) {
    PathStep target() {
      return steps.get(steps.size() - 1);
    }

    List<String> lines() {
      List<String> lines = new ArrayList<>();
      for (PathStep s : steps) {
        lines.add(
            "-> " + s.type() + " " + Unit.address(s.address()) + " (" + Unit.bytes(s.size()) + ")");
      }
      return lines;
    }
  }

  private static final RecordSchema<PathStep> STEP =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("type", "TYPE", 0, Unit.TEXT, PathStep::type),
              Field.of("address", "ADDRESS", 0, Unit.ADDRESS, PathStep::address),
              Field.of("size", "SIZE", 0, Unit.BYTES, PathStep::size)));

  private static final RecordSchema<RootPath> PATH =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("root", "ROOT", 0, Unit.TEXT, RootPath::root),
              Field.of("type", "TYPE", 0, Unit.TEXT, (RootPath p) -> p.target().type())
                  .only(Field.Shown.FLAT),
              Field.of("address", "ADDRESS", 0, Unit.ADDRESS, (RootPath p) -> p.target().address())
                  .only(Field.Shown.FLAT),
              Field.of("steps", "STEPS", 0, Unit.COUNT, (RootPath p) -> p.steps().size())
                  .only(Field.Shown.FLAT),
              Field.<RootPath>data(
                      "path",
                      Unit.WORDS,
                      p -> p.steps().stream().map(s -> stepText(s.type(), s.address())).toList())
                  .only(Field.Shown.CSV),
              Field.nested("path", STEP, RootPath::steps)));

  /** A step of a root path in CSV's one-cell form: {@code Type@0xADDRESS}. */
  public static String stepText(String type, long address) {
    return type + "@" + Unit.address(address);
  }

  @Override
  protected void validate() {
    super.validate();
    if (max != null) {
      TopOption.check(spec, "--max", max);
    } else {
      top.validate();
    }
    typePattern = typePattern(typeFilter);
  }

  @Override
  protected Result show(HeapSnapshot snapshot, String source) {
    List<List<PathStep>> paths =
        snapshot.pathsTo(typePattern, max != null ? TopOption.count(max) : top.count());
    err()
        .println(
            paths.isEmpty()
                ? "No object of a type matching " + typeFilter + " is alive."
                : paths.size() + " shortest paths from a root, nearest objects first.");
    List<RootPath> rows = new ArrayList<>();
    for (List<PathStep> path : paths) {
      rows.add(new RootPath(path.get(0).root(), path.subList(1, path.size())));
    }
    return Report.builder().rows(null, null, PATH, rows, RootPath::lines).build();
  }
}
