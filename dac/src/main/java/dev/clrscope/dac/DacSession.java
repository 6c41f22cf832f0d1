package dev.clrscope.dac;

import dev.clrscope.dac.TargetException.Problem;
import dev.clrscope.dac.interop.ComObject;
import dev.clrscope.dac.interop.DacInterfaces.IXCLRDataProcess;
import dev.clrscope.dac.interop.DacLibrary;
import dev.clrscope.dac.interop.DataTargetObject;
import dev.clrscope.dac.interop.SosDac;
import dev.clrscope.dac.interop.XclrData;
import dev.clrscope.dac.source.ElfCore;
import dev.clrscope.dac.source.ElfImage;
import dev.clrscope.dac.source.LiveProcess;
import dev.clrscope.dac.source.MappedFile;
import dev.clrscope.dac.source.Target;
import dev.clrscope.dac.source.ThreadRegisters;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A .NET process opened through its runtime's own DAC, from a core file ({@link #openCore}) or from
 * the live process, paused ({@link #attach}): the bottom of the model, as ClrMD's {@code
 * DataTarget} is. It owns what may not be shared: the target (the core, or the ptrace'd process),
 * the DAC loaded over it, and the one thread that makes every DAC and ptrace call. On it stand the
 * {@link ClrRuntime} (threads, stacks, modules, types, exceptions, sync blocks, the finalization
 * queue, statics) and the {@link ClrHeap} (segments, the walk, objects, roots, the snapshot); each
 * layer calls only the ones below it.
 *
 * <pre>{@code
 * try (DacSession s = DacSession.openCore(Path.of("app.core"), DacOptions.defaults())) {
 *   ClrRuntime runtime = s.runtime();   // runtime.threads(), runtime.stack(osId), ...
 *   ClrHeap heap = s.heap();            // heap.statistics(), heap.object(address), ...
 * }
 * }</pre>
 *
 * <p><b>Threads.</b> The DAC is not thread-safe and a ptrace tracer is a thread, so one thread owns
 * both; every public method of the session and of its views may be called from any thread and runs
 * on that owner. Visitors run on the owner thread and may call the views.
 *
 * <p><b>Failures.</b> What is wrong with the target, its runtime, the DAC or an address given is a
 * {@link TargetException} with a one-line message. A live process is released (never left stopped
 * or traced) on {@link #close}, on an exception while opening, and at JVM shutdown.
 */
public final class DacSession implements AutoCloseable {
  private static final Pattern PRODUCT_VERSION =
      Pattern.compile("/Microsoft\\.NETCore\\.App/([^/]+)/libcoreclr\\.so$");

  private final Owner owner;
  private final Target target;
  private final DataTargetObject dataTarget;
  private final SosDac sos;
  private final XclrData xclr;
  private final SosDac.UsefulGlobals globals;
  private final RuntimeInfo info;
  private final List<GcHeap> gcHeaps;
  private final ClrRuntime runtime;
  private final ClrHeap heap;
  private volatile boolean closed;
  private Thread shutdownHook;
  private long pausedAtClose;

  /**
   * What is found before the DAC reads the target, and for a live process before it is paused:
   * where the runtime is, its build, and its DAC, loaded.
   */
  private record Prepared(
      MappedFile coreclr,
      String buildId,
      String fileVersion,
      String commit,
      String productVersion,
      DacLocator.Found dac,
      DacLibrary library) {}

  private static Prepared prepare(Target target, DacOptions options, String coreclrRoot) {
    MappedFile coreclr = findCoreclr(target);
    byte[] buildId = ElfImage.buildIdInMemory(target, coreclr.start());
    Path coreclrPath = Path.of((coreclrRoot == null ? "" : coreclrRoot) + coreclr.path());
    String version = ElfImage.versionInMemory(target, coreclr.start());
    if (version == null
        && buildId != null
        && java.util.Arrays.equals(buildId, ElfImage.buildIdOfFile(coreclrPath))) {
      version = ElfImage.versionInFile(coreclrPath);
    }
    // Before anything is loaded: a DAC of another runtime version is refused by the locator.
    DacLocator.Found dac = DacLocator.locate(coreclrPath, buildId, version, options);
    String fileVersion = null;
    String commit = null;
    if (version != null) {
      int at = version.indexOf("@Commit:");
      fileVersion = (at < 0 ? version : version.substring(0, at)).strip();
      commit = at < 0 ? null : version.substring(at + 8).strip();
    }
    Matcher m = PRODUCT_VERSION.matcher(coreclr.path());
    String productVersion = m.find() ? m.group(1) : null;
    return new Prepared(
        coreclr,
        buildId == null ? "unknown" : ElfImage.hex(buildId),
        fileVersion,
        commit,
        productVersion,
        dac,
        DacLibrary.load(dac.dac()));
  }

  // On the owner thread: the DAC created over the target, the runtime's state checked, the views
  // made.
  private DacSession(Owner owner, Target target, Prepared prepared) {
    this.owner = owner;
    this.target = target;
    long coreclrBase = prepared.coreclr().start();
    dataTarget =
        new DataTargetObject(
            new DataTargetObject.Source() {
              @Override
              public int read(long address, byte[] dst, int length) {
                return target.read(address, dst, 0, length);
              }

              @Override
              public long imageBase(String fileName) {
                return DacSession.imageBase(target, fileName);
              }

              @Override
              public long runtimeBase() {
                return coreclrBase;
              }

              @Override
              public byte[] threadContext(int threadId) {
                for (ThreadRegisters r : target.threads()) {
                  if (r.threadId() == threadId) {
                    return r.toContext();
                  }
                }
                return null;
              }
            });
    DacLocator.Found dac = prepared.dac();
    ComObject<IXCLRDataProcess> process =
        prepared.library().createProcess(dataTarget, prepared.buildId());
    SosDac s = SosDac.of(process);
    if (s == null) {
      throw new TargetException(
          Problem.DAC_FAILED, "the DAC " + dac.dac() + " has no ISOSDacInterface: it is not a DAC");
    }
    sos = s;
    xclr = new XclrData(process);
    SosDac.GcHeapData gc = sos.gcHeapData();
    if (gc == null) {
      throw new TargetException(
          Problem.DAC_FAILED,
          "the DAC cannot read the GC's state in "
              + target.describe()
              + " (the runtime was not initialised yet, or the dump lacks its memory)");
    }
    globals = sos.usefulGlobals();
    if (globals == null) {
      throw new TargetException(
          Problem.DAC_FAILED, "the DAC cannot read the runtime's common types");
    }
    gcHeaps = GcLayout.read(sos, gc, target.describe());
    info =
        new RuntimeInfo(
            prepared.fileVersion(),
            prepared.commit(),
            prepared.productVersion(),
            prepared.coreclr().path(),
            coreclrBase,
            prepared.buildId(),
            dac.dac(),
            dac.how(),
            gc.serverMode(),
            GcLayout.hasRegions(gcHeaps),
            gc.heapCount(),
            gc.maxGeneration());
    ClrReader reader = new ClrReader(this);
    runtime = new ClrRuntime(this, reader);
    heap = new ClrHeap(this, reader, runtime);
  }

  /**
   * Opens a core file of a .NET process and its runtime's DAC.
   *
   * @throws TargetException when the file is not a readable x86-64 core of a .NET process, or its
   *     DAC is not found or fails
   */
  public static DacSession openCore(Path core, DacOptions options) {
    return openCore(core, options, true);
  }

  /**
   * Starts opening {@code core} ahead of the command that will read it (the DAC process, while it
   * parses the command): {@link #openCore} takes it, when asked for that file with options that
   * find the same DAC. The DAC is looked for without downloading it. When {@code graph}, the heap's
   * graph is read once the core is open (its {@link ClrHeap#snapshot}, on the owner thread, where
   * the command's calls then wait for it): for a command that reads the graph before anything else.
   */
  public static void openCoreAhead(Path core, boolean graph) {
    EarlyCore.start(core, graph);
  }

  /** Closes a core {@link #openCoreAhead opened ahead} that no command took. */
  public static void dropCoreOpenedAhead() {
    EarlyCore.dropPending();
  }

  static DacSession openCore(Path core, DacOptions options, boolean takeEarly) {
    if (takeEarly) {
      DacSession early = EarlyCore.take(core, options);
      if (early != null) {
        return early;
      }
    }
    Owner owner = new Owner("clrscope-dac " + core.getFileName());
    try {
      return owner.call(
          () -> {
            ElfCore elf = ElfCore.open(core);
            try {
              return new DacSession(owner, elf, prepare(elf, options, null));
            } catch (RuntimeException | Error e) {
              elf.close();
              throw e;
            }
          });
    } catch (RuntimeException | Error e) {
      owner.close();
      throw e;
    }
  }

  /**
   * Pauses the live process {@code pid} (every thread, with ptrace) and opens its runtime's DAC.
   * The process stays paused until {@link #close}; it is let go also when opening fails and at JVM
   * shutdown (Ctrl+C, SIGTERM). {@link #paused} says for how long it was paused.
   *
   * @throws TargetException when the process is gone, ptrace is refused (with what to do), it is
   *     not a .NET process, or its DAC is not found or fails
   */
  public static DacSession attach(int pid, DacOptions options) {
    Owner owner = new Owner("clrscope-dac pid " + pid);
    try {
      DacSession session =
          owner.call(
              () -> {
                // Found and loaded while the process runs: the pause is for reading only.
                Prepared prepared;
                try (Target running = LiveProcess.unpaused(pid)) {
                  prepared =
                      running.mappedFiles().isEmpty()
                          ? null
                          : prepare(running, options, "/proc/" + pid + "/root");
                }
                LiveProcess live = LiveProcess.attach(pid);
                try {
                  if (prepared == null) {
                    prepared = prepare(live, options, "/proc/" + pid + "/root");
                  }
                  return new DacSession(owner, live, prepared);
                } catch (RuntimeException | Error e) {
                  live.close();
                  throw e;
                }
              });
      session.releaseAtShutdown();
      return session;
    } catch (RuntimeException | Error e) {
      owner.close();
      throw e;
    }
  }

  // A JVM that ends (Ctrl+C, SIGTERM, System.exit) lets the process go first: the owner thread,
  // the tracer, detaches after stopping any long work in progress.
  private void releaseAtShutdown() {
    Thread hook =
        new Thread(
            () -> {
              if (!closed) {
                owner.stopAndRun(target::close, 5_000);
              }
            },
            "clrscope-dac release " + target.pid());
    shutdownHook = hook;
    Runtime.getRuntime().addShutdownHook(hook);
  }

  private static MappedFile findCoreclr(Target target) {
    MappedFile best = null;
    for (MappedFile f : target.mappedFiles()) {
      if (f.fileName().equals("libcoreclr.so")
          && f.fileOffset() == 0
          && (best == null || Long.compareUnsigned(f.start(), best.start()) < 0)) {
        best = f;
      }
    }
    if (best == null) {
      throw new TargetException(
          Problem.NOT_DOTNET,
          target.describe()
              + " has no .NET runtime: libcoreclr.so is not mapped (not a .NET process, or a"
              + " NativeAOT one, which has no DAC)");
    }
    return best;
  }

  static long imageBase(Target target, String fileName) {
    String wanted = stripExtension(fileName);
    long best = 0;
    for (MappedFile f : target.mappedFiles()) {
      if (f.fileOffset() == 0
          && stripExtension(f.fileName()).equalsIgnoreCase(wanted)
          && (best == 0 || Long.compareUnsigned(f.start(), best) < 0)) {
        best = f.start();
      }
    }
    return best;
  }

  private static String stripExtension(String name) {
    int dot = name.lastIndexOf('.');
    return dot <= 0 ? name : name.substring(0, dot);
  }

  // ---- the views ---------------------------------------------------------------------------

  /** The runtime: threads, stacks, modules, types, exceptions, sync blocks, statics. */
  public ClrRuntime runtime() {
    return runtime;
  }

  /** The GC heap: segments, the walk, objects, roots, the snapshot. */
  public ClrHeap heap() {
    return heap;
  }

  // ---- the target --------------------------------------------------------------------------

  /** What the process is: {@code core /path} or {@code process 123}. */
  public String describe() {
    return call(target::describe);
  }

  /** The process id. */
  public int pid() {
    return call(target::pid);
  }

  /**
   * The thread a fatal signal stopped, as the core records it (createdump and the kernel mark the
   * thread that crashed), or null: a live process, or a dump written on request.
   */
  public ThreadSignal crashSignal() {
    int[] s = call(target::signalled);
    return s == null ? null : new ThreadSignal(s[0], s[1]);
  }

  /**
   * A thread and the signal that stopped it.
   *
   * @param osThreadId the thread
   * @param signal the signal's number (6 SIGABRT, 11 SIGSEGV)
   */
  public record ThreadSignal(int osThreadId, int signal) {}

  /** Whether this reads a live process rather than a core file. */
  public boolean isLive() {
    return target instanceof LiveProcess;
  }

  /** How long a live process has been (or was, once closed) paused; zero for a core. */
  public Duration paused() {
    if (!(target instanceof LiveProcess live)) {
      return Duration.ZERO;
    }
    return Duration.ofNanos(closed ? pausedAtClose : call(live::pausedNanos));
  }

  /** Statistics of what the DAC asked of the data target so far. */
  public DataTargetObject.Counters dataTargetCounters() {
    return call(dataTarget::counters);
  }

  /**
   * Asks the long work in progress (a heap walk, the snapshot's reading, root paths) to end: it
   * throws {@link TargetException} with {@link Problem#INTERRUPTED} at its next check, and the
   * session stays open for the next request. From any thread (a signal handler's).
   */
  public void cancel() {
    owner.cancel();
  }

  /** Forgets a {@link #cancel} that came after the work it was meant for. */
  public void clearCancel() {
    owner.clearCancel();
  }

  /** Whether {@code path} looks like a core file a session can open (ELF core magic). */
  public static boolean looksLikeCore(Path path) {
    if (!Files.isRegularFile(path)) {
      return false;
    }
    try (var in = Files.newInputStream(path)) {
      byte[] h = in.readNBytes(18);
      return h.length == 18
          && h[0] == 0x7f
          && h[1] == 'E'
          && h[2] == 'L'
          && h[3] == 'F'
          && h[16] == 4
          && h[17] == 0;
    } catch (java.io.IOException e) {
      return false;
    }
  }

  /** Releases the target (a live process runs on) and the owner thread. The DAC stays loaded. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    try {
      owner.run(
          () -> {
            target.close();
            if (target instanceof LiveProcess live) {
              pausedAtClose = live.pausedNanos();
            }
          });
    } finally {
      closed = true;
      owner.close();
      if (shutdownHook != null) {
        try {
          Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (IllegalStateException e) {
          // The JVM is already shutting down: the hook has run or runs now, harmlessly.
        }
      }
    }
  }

  // ---- for the layers above, on the owner thread -------------------------------------------

  SosDac sos() {
    return sos;
  }

  XclrData xclr() {
    return xclr;
  }

  Target source() {
    return target;
  }

  SosDac.UsefulGlobals globals() {
    return globals;
  }

  RuntimeInfo info() {
    return info;
  }

  List<GcHeap> gcHeaps() {
    return gcHeaps;
  }

  void checkStop() {
    owner.checkStop();
  }

  void run(Runnable task) {
    call(
        () -> {
          task.run();
          return null;
        });
  }

  <T> T call(Callable<T> task) {
    if (closed) {
      throw new IllegalStateException("this session is closed");
    }
    return owner.call(task);
  }
}
