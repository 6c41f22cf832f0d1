package dev.clrscope.cli.commands.heap;

import dev.clrscope.cli.attach.AttachedTarget;
import dev.clrscope.cli.commands.DacCommand;
import dev.clrscope.cli.output.OutputFile;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Result;
import dev.clrscope.heapwalk.HeapSnapshot;
import dev.clrscope.monitor.heap.HeapTimeline;
import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code clrscope dump-heap}: a snapshot of the managed heap from outside the process, as
 * dotnet-gcdump takes it (the runtime walks the heap during one GC it is asked to force), reported
 * per type: how many objects and their total size.
 */
@Command(
    name = DumpHeapCommand.NAME,
    aliases = DumpHeapCommand.ALIAS,
    mixinStandardHelpOptions = true,
    description = {
      "Walk the managed heap of a .NET process (the runtime forces one full, blocking GC to do it)"
          + " and print, per type, how many objects it holds, their total size and what they"
          + " retain; or the same of a saved heap FILE (a .gcdump)."
    })
public final class DumpHeapCommand extends HeapCommand {
  /** The command's name, and dotnet-gcdump's, its alias. */
  static final String NAME = "dump-heap";

  static final String ALIAS = "gcdump";

  /**
   * The subcommands, in the order help lists them. Registered in code ({@code
   * ClrscopeCommand.commandLineFor}) rather than in the annotation, so that {@code dump-heap
   * collect} builds the picocli model of {@code collect} alone, not of all five.
   */
  public static final List<Class<?>> SUBCOMMANDS =
      List.of(
          DumpHeapRootsCommand.class,
          DumpHeapReportCommand.class,
          DumpHeapDiffCommand.class,
          DumpHeapCollectCommand.class,
          DumpHeapDominatorsCommand.class,
          DumpHeapConvertCommand.class);

  @Mixin HeapReportOptions report;

  @Option(
      names = {"-o", "--output"},
      paramLabel = "FILE.gcdump",
      description =
          "Also write the snapshot as a .gcdump (PerfView's format: PerfView, Visual Studio,"
              + " dotnet-gcdump report and `clrscope dump-heap report` open it).")
  Path output;

  /** Any of its subcommands reads through the DAC with {@code --exact} or a core file. */
  @Override
  public boolean mayReadThroughDac(List<String> words) {
    return !words.isEmpty()
        && (words.get(0).equals(NAME) || words.get(0).equals(ALIAS))
        && (words.contains("--exact") || DacCommand.namesACore(words.subList(1, words.size())));
  }

  @Override
  protected void validate() {
    super.validate();
    report.validate();
    if (output != null) {
      OutputFile.check(output, "-o");
    }
  }

  @Override
  protected boolean writesFile() {
    return output != null;
  }

  @Override
  protected void written(HeapSnapshot snapshot, AttachedTarget attached) {
    if (output != null) {
      write(snapshot, attached, output);
      err().println("Wrote " + output);
    }
  }

  @Override
  protected Result show(HeapSnapshot snapshot, String source) {
    Report r = report.report(snapshot, source);
    HeapTimeline.mark("report made");
    return r;
  }
}
