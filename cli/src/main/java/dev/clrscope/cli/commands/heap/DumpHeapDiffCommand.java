package dev.clrscope.cli.commands.heap;

import dev.clrscope.cli.options.FormatOption;
import dev.clrscope.cli.render.Field;
import dev.clrscope.cli.render.RecordSchema;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Result;
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

  /** A type's change between two heaps; triage's comparison draws its rows too. */
  public static final RecordSchema<TypeDiff> SCHEMA =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("countDelta", "+COUNT", 0, Unit.COUNT, TypeDiff::countDelta),
              Field.of("sizeDelta", "+SIZE", 0, Unit.BYTES, TypeDiff::sizeDelta),
              Field.of("retainedDelta", "+RETAINED", 0, Unit.BYTES, TypeDiff::retainedDelta),
              Field.of("countAfter", "COUNT", 0, Unit.COUNT, TypeDiff::countAfter),
              Field.of("sizeAfter", "SIZE", 0, Unit.BYTES, TypeDiff::sizeAfter),
              Field.of("type", "TYPE", 0, Unit.TEXT, TypeDiff::type)),
          List.of(),
          "type");

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
  protected Result readFile(Path file) {
    if (after != null) {
      throw new ParameterException(spec.commandLine(), "give the later file once: FILE or --after");
    }
    return show(HeapFile.read(file, dacOptions()), file.getFileName().toString());
  }

  @Override
  protected Result show(HeapSnapshot later, String source) {
    // A live walk's source says a GC walked it: the later side is the heap at that GC.
    String name =
        source.endsWith(" walked")
            ? "the heap at " + source.substring(0, source.length() - " walked".length())
            : source;
    HeapSnapshot earlier = HeapFile.read(before, dacOptions());
    // The later side is checked where it was read (HeapCommand, run()).
    return HeapFile.requireWhole(earlier, err(), report(earlier, later, name));
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
  protected Result run() {
    HeapSnapshot later = HeapFile.read(after, dacOptions());
    return HeapFile.requireWhole(later, err(), show(later, after.getFileName().toString()));
  }

  private Report report(HeapSnapshot earlier, HeapSnapshot later, String laterName) {
    List<TypeDiff> rows =
        TypeDiff.between(earlier, later).stream()
            .filter(d -> selection.matches(d.type()))
            .limit(selection.limit())
            .toList();
    Head head =
        new Head(
            laterName,
            before.getFileName().toString(),
            (long) later.objectCount() - earlier.objectCount(),
            later.totalSize() - earlier.totalSize());
    return Report.builder().values(HEAD, head).rows("types", null, SCHEMA, rows).primary().build();
  }

  /** The two snapshots compared, and how the whole heap grew. */
  private record Head(String after, String before, long objectsDelta, long sizeDelta) {
    String line() {
      return after
          + " against "
          + before
          + ": "
          + (objectsDelta > 0 ? "+" : "")
          + Unit.count(objectsDelta)
          + " objects, "
          + (sizeDelta > 0 ? "+" : "")
          + Unit.bytes(sizeDelta);
    }
  }

  private static final RecordSchema<Head> HEAD =
      new RecordSchema<>(
          null,
          List.of(
              Field.of("summary", "", 0, Unit.TEXT, Head::line).only(Field.Shown.TABLE),
              Field.data("after", Unit.TEXT, Head::after),
              Field.data("before", Unit.TEXT, Head::before),
              Field.data("objectsDelta", Unit.COUNT, Head::objectsDelta),
              Field.data("sizeDelta", Unit.BYTES, Head::sizeDelta)));
}
