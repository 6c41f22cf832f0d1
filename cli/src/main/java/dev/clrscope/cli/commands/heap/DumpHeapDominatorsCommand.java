package dev.clrscope.cli.commands.heap;

import dev.clrscope.cli.attach.AttachedTarget;
import dev.clrscope.cli.options.FormatOption;
import dev.clrscope.cli.options.Numbers;
import dev.clrscope.cli.options.OutputFormat;
import dev.clrscope.cli.output.OutputFile;
import dev.clrscope.cli.render.JsonText;
import dev.clrscope.heapwalk.HeapSnapshot;
import dev.clrscope.heapwalk.HeapSnapshot.Retainer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code clrscope dump-heap dominators}: the biggest retainers as a tree (the dominator tree of the
 * heap, cut to what matters), and the heap as a flame graph.
 */
@Command(
    name = "dominators",
    mixinStandardHelpOptions = true,
    description = {
      "The objects that retain the most, as a tree: each retains its own size and everything only"
          + " reachable through it. Of a live process (-p, -n, ...) or a .gcdump (--file);"
          + " --flame writes the whole dominator tree as folded stacks for a flame graph."
    })
public final class DumpHeapDominatorsCommand extends HeapCommand {
  @Mixin FormatOption format;

  @Option(
      names = "--file",
      paramLabel = "FILE.gcdump",
      description = "A .gcdump file instead of a live process.")
  Path file;

  @Option(
      names = "--depth",
      paramLabel = "N",
      defaultValue = "4",
      description = "Levels of the tree to show (default: ${DEFAULT-VALUE}).")
  int depth = 4;

  @Option(
      names = "--min-percent",
      paramLabel = "P",
      defaultValue = "1",
      description =
          "Show an object only if it retains at least P%% of the heap (default: ${DEFAULT-VALUE}).")
  double minPercent = 1;

  @Option(
      names = "--width",
      paramLabel = "N",
      defaultValue = "10",
      description = "At most N children of each node (default: ${DEFAULT-VALUE}).")
  int width = 10;

  @Option(
      names = "--flame",
      paramLabel = "OUT.folded",
      description =
          "Also write the dominator tree as folded stacks (type;type;... size), for speedscope or"
              + " any flame-graph tool: the heap as a picture.")
  Path flame;

  @Override
  protected boolean needsTarget() {
    return file == null;
  }

  @Override
  protected void validate() {
    super.validate();
    if (depth <= 0 || width <= 0 || !(minPercent >= 0 && minPercent <= 100)) {
      throw new ParameterException(
          spec.commandLine(), "--depth and --width take 1 or more, --min-percent 0 to 100");
    }
    if (file != null && target.isChosen()) {
      throw new ParameterException(spec.commandLine(), "--file or a process, not both");
    }
    if (flame != null) {
      OutputFile.check(flame, "--flame");
    }
  }

  @Override
  protected int runWithoutTarget() {
    return show(DumpHeapReportCommand.read(file), file.getFileName().toString());
  }

  @Override
  protected int run(AttachedTarget attached) {
    HeapSnapshot s = snapshot(attached);
    return show(s, "GC " + s.gcNumber());
  }

  private int show(HeapSnapshot s, String source) {
    List<Retainer> top = s.biggestRetainers(depth, minPercent / 100, width);
    long total = s.totalSize();
    err()
        .println(
            String.format(
                Locale.ROOT,
                "%s: %,d objects, %,d bytes; the biggest retainers, each retaining %s%% or more",
                source,
                s.objectCount(),
                total,
                Numbers.plain(minPercent)));
    if (format.format() == OutputFormat.json) {
      out().println(JsonText.of(json(top)));
    } else {
      print(top, total, "");
    }
    out().flush();
    if (flame != null) {
      Map<String, Long> folded = s.dominatorFlame(64);
      OutputFile.write(
          flame,
          out -> {
            for (Map.Entry<String, Long> e : folded.entrySet()) {
              if (e.getValue() > 0) {
                out.write(
                    (e.getKey() + " " + e.getValue() + "\n").getBytes(StandardCharsets.UTF_8));
              }
            }
            return null;
          });
      err().println("Wrote " + flame + " (" + folded.size() + " stacks)");
    }
    return 0;
  }

  private void print(List<Retainer> nodes, long total, String indent) {
    for (Retainer r : nodes) {
      out()
          .println(
              String.format(
                  Locale.ROOT,
                  "%s%,14d  %5.1f%%  %s (%,d B)",
                  indent,
                  r.retained(),
                  total == 0 ? 0.0 : 100.0 * r.retained() / total,
                  r.type(),
                  r.size()));
      print(r.children(), total, indent + "  ");
    }
  }

  private static List<Object> json(List<Retainer> nodes) {
    List<Object> out = new ArrayList<>();
    for (Retainer r : nodes) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("type", r.type());
      m.put("size", r.size());
      m.put("retained", r.retained());
      m.put("children", json(r.children()));
      out.add(m);
    }
    return out;
  }
}
