package dev.clrscope.cli.commands.heap;

import dev.clrscope.cli.options.FormatOption;
import dev.clrscope.cli.options.Numbers;
import dev.clrscope.cli.options.TypeRegex;
import dev.clrscope.cli.output.OutputFile;
import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Result;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.heapwalk.HeapSnapshot;
import dev.clrscope.heapwalk.HeapSnapshot.Retainer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
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
          + " reachable through it. Of a live process (-p, -n, ...) or a heap FILE (a .gcdump);"
          + " --flame writes the whole dominator tree as folded stacks for a flame graph."
    })
public final class DumpHeapDominatorsCommand extends HeapCommand {
  @Mixin FormatOption format;

  /** The file as earlier versions took it; FILE is now positional, as in every heap command. */
  @Option(names = "--file", paramLabel = "FILE", hidden = true)
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
  protected void validate() {
    super.validate();
    if (depth <= 0 || width <= 0 || !(minPercent >= 0 && minPercent <= 100)) {
      throw new ParameterException(
          spec.commandLine(), "--depth and --width take 1 or more, --min-percent 0 to 100");
    }
    if (file != null && (target.isChosen() || target.inputFile() != null)) {
      throw new ParameterException(spec.commandLine(), "--file or a process, not both");
    }
    if (flame != null) {
      OutputFile.check(flame, "--flame");
    }
  }

  @Override
  protected boolean needsTarget() {
    return file == null;
  }

  @Override
  protected List<Path> heapFiles() {
    List<Path> files = super.heapFiles();
    if (file != null) {
      files.add(file);
    }
    return files;
  }

  @Override
  protected Result run() {
    return readFile(file);
  }

  /** What the tree is of: the objects and bytes the roots reach, and the tree's floor. */
  private record Head(String source, long objects, long reachable, double minPercent) {
    String line() {
      return source
          + " "
          + Unit.count(objects)
          + " objects, "
          + Unit.bytes(reachable)
          + " reachable from roots; the biggest retainers, each retaining "
          + Numbers.plain(minPercent)
          + "% or more";
    }
  }

  private static final RecordSchema<Head> HEAD =
      new RecordSchema<>(
          null, List.of(Field.of("summary", "", 0, Unit.TEXT, Head::line).only(Field.Shown.TABLE)));

  @Override
  protected Result show(HeapSnapshot s, String source) {
    List<Retainer> top = s.biggestRetainers(depth, minPercent / 100, width);
    // Percentages of what the roots reach: garbage not yet collected is no one's.
    long total = s.reachableSize();
    Report.Builder report =
        Report.builder()
            .values(
                HEAD, new Head(source, s.objectCount() - s.unreachableCount(), total, minPercent))
            .tree(null, null, retainerSchema(total), top, Retainer::children, "type")
            .primary();
    String note =
        SharedOwnershipNote.of(
            s,
            top,
            type ->
                "`dump-heap report --type '"
                    + TypeRegex.literal(type)
                    + "'` shows what they retain, `dump-heap roots --type '"
                    + TypeRegex.literal(type)
                    + "'` where they are held from (in a core, analyze's `retained -type` and"
                    + " `paths`).");
    if (note != null) {
      report.note(note);
    }
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
    return report.build();
  }

  /** A retainer's fields; its share is of {@code total}, the whole heap. */
  private static RecordSchema<Retainer> retainerSchema(long total) {
    return new RecordSchema<Retainer>(
            null,
            List.of(
                Field.of("retained", "RETAINED", 0, Unit.BYTES, Retainer::retained),
                Field.of(
                        "retainedPercent",
                        "%",
                        0,
                        Unit.PERCENT,
                        (Retainer r) -> Unit.percent(r.retained(), total))
                    .only(Field.Shown.TABLE),
                Field.of("size", "SIZE", 0, Unit.BYTES, Retainer::size),
                Field.of("type", "TYPE", 0, Unit.TEXT, Retainer::type)))
        .withPriority(List.of("retained", "type", "retainedPercent", "size"))
        .withKey("type");
  }
}
