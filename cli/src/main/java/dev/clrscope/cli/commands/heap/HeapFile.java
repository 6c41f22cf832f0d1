package dev.clrscope.cli.commands.heap;

import dev.clrscope.cli.CommandFailure;
import dev.clrscope.cli.dacprocess.DacHost;
import dev.clrscope.cli.output.IoErrors;
import dev.clrscope.dac.ClrProcess;
import dev.clrscope.dac.DacOptions;
import dev.clrscope.dac.TargetException;
import dev.clrscope.heapwalk.GcDumpFormatException;
import dev.clrscope.heapwalk.GcDumpReader;
import dev.clrscope.heapwalk.HeapSnapshot;
import dev.clrscope.nettrace.InputFile;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * A heap file given to a {@code dump-heap} command, recognised by its content rather than its name:
 * a .gcdump (PerfView's FastSerialization), or a core dump (an ELF core file), whose exact graph is
 * read through the DAC.
 */
final class HeapFile {
  private HeapFile() {}

  /** The first bytes of a .gcdump: the length 20, then {@code !FastSerialization.1}. */
  private static final byte[] GCDUMP;

  static {
    byte[] name = "!FastSerialization.1".getBytes(StandardCharsets.US_ASCII);
    GCDUMP = new byte[4 + name.length];
    GCDUMP[0] = (byte) name.length;
    System.arraycopy(name, 0, GCDUMP, 4, name.length);
  }

  private static final byte[] ELF = {0x7f, 'E', 'L', 'F'};

  /** Reads a heap file; a missing, unreadable or unknown file is a target error naming it. */
  static HeapSnapshot read(Path file) {
    byte[] head;
    try (InputStream in = InputFile.newInputStream(file)) {
      head = in.readNBytes(GCDUMP.length);
    } catch (NoSuchFileException e) {
      throw new CommandFailure(file + " is not there: give a .gcdump file or a core dump", e);
    } catch (InputFile.NotRegularFile e) {
      throw new CommandFailure(
          file + " is " + e.what() + ", not a regular file: give a .gcdump file or a core dump", e);
    } catch (IOException e) {
      throw new CommandFailure("could not read " + file + ": " + IoErrors.reason(e), e);
    }
    if (startsWith(head, ELF)) {
      return readCore(file);
    }
    if (!startsWith(head, GCDUMP)) {
      throw new CommandFailure(
          file
              + " is neither a .gcdump file (no FastSerialization header) nor a core dump: give"
              + " a .gcdump file or a core");
    }
    try {
      return GcDumpReader.read(file);
    } catch (IOException e) {
      throw new CommandFailure("could not read " + file + ": " + IoErrors.reason(e), e);
    } catch (GcDumpFormatException e) {
      throw new CommandFailure(file + " is not a readable .gcdump: " + e.getMessage(), e);
    }
  }

  /**
   * The exact graph of a core dump, read through the runtime's DAC (found as {@code analyze} finds
   * it): every object, reference and root, garbage not yet collected apart.
   */
  private static HeapSnapshot readCore(Path file) {
    if (!ClrProcess.looksLikeCore(file)) {
      throw new CommandFailure(
          file + " is an ELF file but not a core dump: give a core dump or a .gcdump file");
    }
    DacHost.reading(0, "core " + file);
    try (ClrProcess process = ClrProcess.openCore(file, DacOptions.defaults())) {
      return process.heapSnapshot();
    } catch (TargetException e) {
      // The DAC's messages name the file already.
      throw new CommandFailure(e.getMessage(), e);
    }
  }

  private static boolean startsWith(byte[] head, byte[] prefix) {
    return head.length >= prefix.length
        && Arrays.equals(head, 0, prefix.length, prefix, 0, prefix.length);
  }
}
