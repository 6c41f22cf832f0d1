package dev.clrscope.triage;

import dev.clrscope.dac.DacOptions;
import dev.clrscope.dac.DacSession;
import dev.clrscope.dac.RuntimeInfo;
import dev.clrscope.dac.TargetException;
import dev.clrscope.heapwalk.HeapSnapshot;
import dev.clrscope.symbols.SourceLines;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Triage of a core or a live process read through its runtime's DAC, in one call: the earlier
 * core's heap read and let go first (for a comparison), then the target opened (a live process
 * paused), every check run on it through {@link DacTarget}, and the target let go. Everything
 * triage reads through the DAC is read here.
 */
public final class DacTriage {
  private DacTriage() {}

  /**
   * What to triage.
   *
   * @param core the core file, or null for a live process
   * @param pid the live process when {@code core} is null
   * @param earlier an earlier core to compare the heap with, or null
   * @param options where the DAC comes from
   * @param lines where frames' PDBs are found, or null for no lines
   * @param settings the thresholds
   * @param sample what a watch of the live process saw before, or null
   * @param commandTarget how next commands name the target: the core's path, or {@code -p PID}
   */
  public record Request(
      Path core,
      int pid,
      Path earlier,
      DacOptions options,
      SourceLines lines,
      TriageSettings settings,
      LiveSample sample,
      String commandTarget) {}

  /**
   * What was found.
   *
   * @param result the findings
   * @param runtime the runtime read
   * @param paused how long a live process was paused (zero for a core)
   * @param heap the heap graph read, or null (no heap asked for, or it could not be read): says
   *     whether the heap was read whole
   */
  public record Outcome(
      TriageResult result, RuntimeInfo runtime, Duration paused, HeapSnapshot heap) {}

  /**
   * Reads the target and triages it; a live process is let go before this returns.
   *
   * @throws TargetException when the target (or the earlier core: its path then starts the message)
   *     cannot be opened and read
   */
  public static Outcome run(Request request) {
    HeapSnapshot before = request.earlier() == null ? null : earlierHeap(request);
    DacSession session =
        request.core() != null
            ? DacSession.openCore(request.core(), request.options())
            : DacSession.attach(request.pid(), request.options());
    try (session) {
      DacTarget target = new DacTarget(session, request.commandTarget(), request.lines());
      TriageResult result =
          Triage.run(
              target,
              request.settings(),
              request.sample(),
              before,
              request.earlier() == null ? null : request.earlier().toString());
      RuntimeInfo runtime = session.runtime().info();
      HeapSnapshot heap = target.heapRead();
      session.close();
      return new Outcome(result, runtime, session.paused(), heap);
    }
  }

  /** The earlier core's heap graph, read and let go before the later target is read. */
  private static HeapSnapshot earlierHeap(Request request) {
    try (DacSession s = DacSession.openCore(request.earlier(), request.options())) {
      return s.heap().snapshot();
    } catch (TargetException e) {
      throw new TargetException(e.problem(), request.earlier() + ": " + e.getMessage(), e);
    }
  }
}
