package dev.clrscope.cli.commands.heap;

import dev.clrscope.cli.attach.AttachedTarget;
import dev.clrscope.cli.output.OutputFile;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Result;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.heapwalk.HeapSnapshot;
import dev.clrscope.monitor.heap.HeapTimeline;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code clrscope dump-heap collect} (also {@code clrscope gcdump collect}, as dotnet-gcdump users
 * type it): write the snapshot to a .gcdump file and print its path.
 */
@Command(
    name = "collect",
    mixinStandardHelpOptions = true,
    description = {
      "Walk the managed heap (one forced full GC) and write it as a .gcdump file, as dotnet-gcdump"
          + " collect does; prints the file's path."
    })
public final class DumpHeapCollectCommand extends HeapCommand {
  @Option(
      names = {"-o", "--output"},
      paramLabel = "FILE.gcdump",
      description =
          "The file (default: yyyyMMdd_HHmmss_<pid>.gcdump in the current directory, as"
              + " dotnet-gcdump names it).")
  Path output;

  @Override
  protected void validate() {
    super.validate();
    // The default name is made in the current directory.
    OutputFile.check(output != null ? output : Path.of("x.gcdump"), "-o");
  }

  @Override
  protected boolean readsFiles() {
    return false;
  }

  @Override
  protected boolean writesFile() {
    return true;
  }

  @Override
  protected Result show(HeapSnapshot snapshot, String source) {
    throw new UnsupportedOperationException("collect writes a live snapshot");
  }

  @Override
  protected Result run(AttachedTarget attached) {
    HeapSnapshot snapshot = snapshot(attached);
    Path file =
        output != null
            ? output
            : Path.of(
                LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd_HHmmss"))
                    + "_"
                    + Math.max(attached.pid(), 0)
                    + ".gcdump");
    write(snapshot, attached, file);
    err()
        .println(
            source(snapshot, attached)
                + " "
                + Unit.count(snapshot.objectCount())
                + " objects, "
                + Unit.bytes(snapshot.totalSize()));
    HeapTimeline.mark("done");
    return Report.path(file.toAbsolutePath());
  }
}
