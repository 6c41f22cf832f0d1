package dev.clrscope.cli.commands.heap;

import dev.clrscope.cli.options.FormatOption;
import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.heapwalk.HeapSnapshot;
import dev.clrscope.heapwalk.TypeDiff;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code clrscope dump-heap diff --before A.gcdump --after B.gcdump} or {@code … -p PID}: what
 * grew, per type, between two snapshots; the second may be taken now from a live process.
 */
@Command(
    name = "diff",
    mixinStandardHelpOptions = true,
    description = {
      "Compare two heap snapshots per type (objects, total size, retained size), most grown first:"
          + " two .gcdump files, or a file and a live process (-p, -n, ...) walked now."
    })
public final class DumpHeapDiffCommand extends HeapCommand {
  // Options, not positional parameters: an attaching command's positionals are `-- COMMAND`.
  @Option(
      names = "--before",
      paramLabel = "FILE",
      required = true,
      description = "The earlier .gcdump file.")
  Path before;

  @Option(
      names = "--after",
      paramLabel = "FILE",
      description = "The later .gcdump file; without it, the process given (-p, -n, ...) now.")
  Path after;

  @Mixin FormatOption format;

  @Mixin TypeSelection selection;

  static final RecordSchema<TypeDiff> SCHEMA =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("countDelta", "+COUNT", 0, Unit.COUNT, TypeDiff::countDelta),
              Field.of("sizeDelta", "+SIZE", 0, Unit.COUNT, TypeDiff::sizeDelta),
              Field.of("retainedDelta", "+RETAINED", 0, Unit.COUNT, TypeDiff::retainedDelta),
              Field.of("countAfter", "COUNT", 0, Unit.COUNT, TypeDiff::countAfter),
              Field.of("sizeAfter", "SIZE", 0, Unit.COUNT, TypeDiff::sizeAfter),
              Field.of("type", "TYPE", 0, Unit.TEXT, TypeDiff::type)));

  @Override
  protected boolean needsTarget() {
    return after == null;
  }

  @Override
  protected List<Path> heapFiles() {
    List<Path> files = super.heapFiles();
    files.add(before);
    if (after != null) {
      files.add(after);
    }
    return files;
  }

  /** FILE is the later snapshot, as {@code --after} is. */
  @Override
  protected int readFile(Path file) {
    if (after != null) {
      throw new ParameterException(spec.commandLine(), "give the later file once: FILE or --after");
    }
    return show(HeapFile.read(file), file.getFileName().toString());
  }

  @Override
  protected int show(HeapSnapshot later, String source) {
    print(HeapFile.read(before), later, source);
    return 0;
  }

  @Override
  protected void validate() {
    super.validate();
    selection.validate();
    if (after != null && target.isChosen()) {
      throw new ParameterException(
          spec.commandLine(), "--after FILE or a process (-p, -n, ...), not both");
    }
  }

  @Override
  protected int runWithoutTarget() {
    return show(HeapFile.read(after), after.getFileName().toString());
  }

  private void print(HeapSnapshot earlier, HeapSnapshot later, String laterName) {
    List<TypeDiff> rows =
        TypeDiff.between(earlier, later).stream()
            .filter(d -> selection.matches(d.type()))
            .limit(selection.limit())
            .toList();
    err()
        .println(
            String.format(
                java.util.Locale.ROOT,
                "%s against %s: %+,d objects, %+,d bytes",
                laterName,
                before.getFileName(),
                (long) later.objectCount() - earlier.objectCount(),
                later.totalSize() - earlier.totalSize()));
    format
        .renderer(out(), err())
        .report(Report.builder().rows("types", null, SCHEMA, rows).build());
  }
}
