package dev.clrscope.cli.commands.heap;

import dev.clrscope.cli.render.Result;
import dev.clrscope.heapwalk.HeapSnapshot;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code clrscope dump-heap report FILE}: the per-type report of a heap file (a .gcdump, as
 * dotnet-gcdump or PerfView wrote it): counts, total sizes (not the size of one object, which
 * {@code dotnet-gcdump report} prints) and retained sizes; of a live process too ({@code -p PID}).
 */
@Command(
    name = "report",
    mixinStandardHelpOptions = true,
    description = {
      "Print, per type, the objects of a heap FILE (a .gcdump written by dotnet-gcdump, PerfView"
          + " or clrscope) or of a live process: count, total size and retained size."
    })
public final class DumpHeapReportCommand extends HeapCommand {
  @Mixin HeapReportOptions report;

  @Override
  protected void validate() {
    super.validate();
    report.validate();
  }

  @Override
  protected Result show(HeapSnapshot snapshot, String source) {
    return report.report(snapshot, source);
  }
}
