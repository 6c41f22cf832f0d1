package dev.clrscope.cli.commands.heap;

import dev.clrscope.cli.attach.AttachedTarget;
import dev.clrscope.cli.options.FormatOption;
import dev.clrscope.cli.options.OutputFormat;
import dev.clrscope.cli.options.TypeRegex;
import dev.clrscope.cli.render.JsonText;
import dev.clrscope.heapwalk.HeapSnapshot;
import dev.clrscope.heapwalk.HeapSnapshot.PathStep;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code clrscope dump-heap roots}: why objects are alive, as the shortest path from a GC root (a
 * static field by name, a stack, a handle, the finalizer queue) to them.
 */
@Command(
    name = "roots",
    mixinStandardHelpOptions = true,
    description = {
      "Walk the managed heap (one forced full GC) and print, for objects of the types asked for,"
          + " the shortest path from a GC root to each: the root (a static field by name, a"
          + " stack, a handle, the finalizer queue), then every object on the way."
    })
public final class DumpHeapRootsCommand extends HeapCommand {
  @Mixin FormatOption format;

  @Option(
      names = "--type",
      paramLabel = "REGEX",
      required = true,
      description = "The objects to explain: types whose name contains a match of REGEX.")
  String typeFilter;

  @Option(
      names = "--max",
      paramLabel = "N",
      defaultValue = "5",
      description = "At most N paths, nearest objects first (default: ${DEFAULT-VALUE}).")
  int max = 5;

  private TypeRegex typePattern;

  @Override
  protected void validate() {
    super.validate();
    if (max <= 0) {
      throw new ParameterException(spec.commandLine(), "--max takes 1 or more, got " + max);
    }
    typePattern = typePattern(typeFilter);
  }

  @Override
  protected int run(AttachedTarget attached) {
    HeapSnapshot snapshot = snapshot(attached);
    List<List<PathStep>> paths = snapshot.pathsTo(typePattern, max);
    err()
        .println(
            paths.isEmpty()
                ? "No object of a type matching " + typeFilter + " is alive."
                : paths.size() + " shortest paths from a root, nearest objects first.");
    if (format.format() == OutputFormat.json) {
      List<Object> out = new ArrayList<>();
      for (List<PathStep> path : paths) {
        List<Object> steps = new ArrayList<>();
        for (PathStep s : path.subList(1, path.size())) {
          Map<String, Object> step = new LinkedHashMap<>();
          step.put("type", s.type());
          step.put("address", "0x" + Long.toHexString(s.address()));
          step.put("size", s.size());
          steps.add(step);
        }
        Map<String, Object> p = new LinkedHashMap<>();
        p.put("root", path.get(0).root());
        p.put("path", steps);
        out.add(p);
      }
      out().println(JsonText.of(out));
    } else {
      for (List<PathStep> path : paths) {
        out().println(path.get(0).root());
        for (PathStep s : path.subList(1, path.size())) {
          out()
              .println(
                  "  -> "
                      + s.type()
                      + " 0x"
                      + Long.toHexString(s.address())
                      + " ("
                      + s.size()
                      + " B)");
        }
        out().println();
      }
    }
    out().flush();
    return 0;
  }
}
