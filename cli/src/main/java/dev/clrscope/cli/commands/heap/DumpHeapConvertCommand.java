package dev.clrscope.cli.commands.heap;

import dev.clrscope.cli.commands.ClrscopeSubcommand;
import dev.clrscope.cli.commands.DacCommand;
import dev.clrscope.cli.options.DacSourceOptions;
import dev.clrscope.cli.output.OutputFile;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Result;
import dev.clrscope.cli.render.Unit;
import dev.clrscope.heapwalk.HeapSnapshot;
import dev.clrscope.monitor.heap.HeapWalk;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code clrscope dump-heap convert CORE -o FILE.gcdump}: the exact graph of a core dump (or a
 * .gcdump, rewritten) as a .gcdump that PerfView, Visual Studio and {@code dotnet-gcdump report}
 * open. Objects no root reaches are written under a root group of their own, {@code [unreachable
 * objects]}, so that the file's counts are the heap's and a reader sees them apart.
 */
@Command(
    name = "convert",
    mixinStandardHelpOptions = true,
    description = {
      "Write a core dump's managed heap (read through the runtime's DAC: every object, reference"
          + " and root) as a .gcdump file for PerfView, Visual Studio or dotnet-gcdump report."
    })
public final class DumpHeapConvertCommand extends ClrscopeSubcommand implements DacCommand {
  @Parameters(
      index = "0",
      paramLabel = "FILE",
      description = "A core dump (or a .gcdump), recognised by its content.")
  Path input;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FILE.gcdump",
      required = true,
      description = "The .gcdump to write.")
  Path output;

  @Mixin DacSourceOptions dacSource;

  @Override
  public boolean readsThroughDac() {
    return DacCommand.isCore(input);
  }

  @Override
  protected Result run() {
    OutputFile.check(output, "-o");
    HeapSnapshot snapshot = HeapFile.read(input, dacSource.dacOptions(this::warn));
    OutputFile.write(
        output,
        out -> {
          // A core's process is not running here: no name or pid to give.
          HeapWalk.write(snapshot, 0, out);
          return null;
        });
    err()
        .println(
            input.getFileName()
                + ": "
                + Unit.count(snapshot.objectCount())
                + " objects, "
                + Unit.bytes(snapshot.totalSize())
                + " ("
                + Unit.count(snapshot.unreachableCount())
                + " of them, "
                + Unit.bytes(snapshot.totalSize() - snapshot.reachableSize())
                + ", reachable from no root)");
    return HeapFile.requireWhole(snapshot, err(), Report.path(output.toAbsolutePath()));
  }
}
