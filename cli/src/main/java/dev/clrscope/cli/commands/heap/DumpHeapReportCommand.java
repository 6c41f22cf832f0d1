package dev.clrscope.cli.commands.heap;

import dev.clrscope.cli.CommandFailure;
import dev.clrscope.cli.commands.ClrscopeSubcommand;
import dev.clrscope.cli.output.IoErrors;
import dev.clrscope.heapwalk.GcDumpFormatException;
import dev.clrscope.heapwalk.GcDumpReader;
import dev.clrscope.heapwalk.HeapSnapshot;
import dev.clrscope.nettrace.InputFile;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code clrscope dump-heap report FILE.gcdump}: the per-type report of a .gcdump file, as
 * dotnet-gcdump or PerfView wrote it: counts, total sizes (not the size of one object, which {@code
 * dotnet-gcdump report} prints) and retained sizes.
 */
@Command(
    name = "report",
    mixinStandardHelpOptions = true,
    description = {
      "Print, per type, the objects of a .gcdump file (written by dotnet-gcdump or PerfView):"
          + " count, total size and retained size."
    })
public final class DumpHeapReportCommand extends ClrscopeSubcommand {
  @Parameters(paramLabel = "FILE", description = "The .gcdump file.")
  Path file;

  @Mixin HeapReportOptions report;

  @Override
  public Integer call() {
    report.validate();
    HeapSnapshot snapshot = read(file);
    report.print(snapshot, file.getFileName() + " holds", out(), err());
    return 0;
  }

  /** Reads a .gcdump; a missing, unreadable or malformed file is a target error naming it. */
  static HeapSnapshot read(Path file) {
    try {
      return GcDumpReader.read(file);
    } catch (NoSuchFileException e) {
      throw new CommandFailure(file + " is not there: give a .gcdump file", e);
    } catch (InputFile.NotRegularFile e) {
      throw new CommandFailure(
          file + " is " + e.what() + ", not a regular file: give a .gcdump file", e);
    } catch (IOException e) {
      throw new CommandFailure("could not read " + file + ": " + IoErrors.reason(e), e);
    } catch (GcDumpFormatException e) {
      throw new CommandFailure(file + " is not a readable .gcdump: " + e.getMessage(), e);
    }
  }
}
