package dev.clrscope.cli.commands.heap;

import dev.clrscope.cli.CommandFailure;
import dev.clrscope.cli.dacprocess.DacHost;
import dev.clrscope.cli.output.IoErrors;
import dev.clrscope.cli.render.Report;
import dev.clrscope.cli.render.Result;
import dev.clrscope.dac.DacOptions;
import dev.clrscope.dac.DacSession;
import dev.clrscope.dac.HeapProblems;
import dev.clrscope.dac.TargetException;
import dev.clrscope.heapwalk.GcDumpFormatException;
import dev.clrscope.heapwalk.GcDumpReader;
import dev.clrscope.heapwalk.HeapSnapshot;
import dev.clrscope.heapwalk.WalkProblems;
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
public final class HeapFile {
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

  /**
   * Reads a heap file; a missing, unreadable or unknown file is a target error naming it.
   *
   * @param dac how the DAC of a core is found
   */
  static HeapSnapshot read(Path file, DacOptions dac) {
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
      return readCore(file, dac);
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
  private static HeapSnapshot readCore(Path file, DacOptions dac) {
    if (!DacSession.looksLikeCore(file)) {
      throw new CommandFailure(
          file + " is an ELF file but not a core dump: give a core dump or a .gcdump file");
    }
    DacHost.reading(0, "core " + file);
    try (DacSession process = DacSession.openCore(file, dac)) {
      return process.heap().snapshot();
    } catch (TargetException e) {
      // The DAC's messages name the file already.
      throw new CommandFailure(e.getMessage(), e);
    }
  }

  /**
   * Says on {@code err} where an exact walk (a core's, a paused process's, through the DAC) could
   * not go on, and ends the command with exit 1: a smaller heap must never pass for the whole one,
   * for a person (the warnings) or for a script (the status). What was shown or written stands: it
   * is what could be read, and JSON's {@code problems}, {@code problemCounts} and {@code
   * bytesNotWalked} say the same.
   */
  public static Result requireWhole(HeapSnapshot snapshot, java.io.PrintStream err, Result shown) {
    WalkProblems problems = snapshot.walkProblems();
    if (!problems.heapNotWhole()) {
      return shown;
    }
    for (String detail : problems.details()) {
      err.println("warning: " + detail);
    }
    String failure =
        "the heap was not read whole: "
            + HeapProblems.of(problems).summary()
            + "; what is shown counts only what could be read (the core may be damaged or cut"
            + " short)";
    if (shown instanceof Report r) {
      return r.failingAfterDrawn(failure);
    }
    throw new CommandFailure(failure);
  }

  private static boolean startsWith(byte[] head, byte[] prefix) {
    return head.length >= prefix.length
        && Arrays.equals(head, 0, prefix.length, prefix, 0, prefix.length);
  }
}
