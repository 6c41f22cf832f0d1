package dev.clrscope.triage;

import dev.clrscope.dac.ClrField;
import dev.clrscope.dac.ClrHeap;
import dev.clrscope.dac.ClrObject;
import dev.clrscope.dac.ClrRuntime;
import dev.clrscope.dac.ClrThread;
import dev.clrscope.dac.ClrType;
import dev.clrscope.dac.ClrValue;
import dev.clrscope.dac.DacSession;
import dev.clrscope.dac.ExceptionInfo;
import dev.clrscope.dac.FinalizerEntry;
import dev.clrscope.dac.FrameLocation;
import dev.clrscope.dac.StackFrame;
import dev.clrscope.dac.SyncBlock;
import dev.clrscope.dac.TargetException;
import dev.clrscope.dac.Value;
import dev.clrscope.dac.analysis.HeapContents;
import dev.clrscope.dac.analysis.ThreadPoolQueues;
import dev.clrscope.dac.analysis.Timers;
import dev.clrscope.heapwalk.HeapSnapshot;
import dev.clrscope.symbols.Frame;
import dev.clrscope.symbols.SourceLines;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The one place triage reads the dac model: every {@link TriageTarget} read as calls on a {@link
 * DacSession}'s runtime and heap views and the analyses of {@code dac/analysis}. A port to another
 * model of the runtime rewrites this class and nothing else.
 */
public final class DacTarget implements TriageTarget {
  private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(DacTarget.class);

  /** At most this many objects of the finalization queue are asked their type. */
  private static final int MAX_TYPED_FINALIZABLE = 200_000;

  private final DacSession session;
  private final ClrRuntime runtime;
  private final ClrHeap clrHeap;
  private final String commandTarget;
  private final SourceLines lines;
  private List<ThreadView> threads;
  private HeapSnapshot heap;

  /**
   * A target.
   *
   * @param session the core or the paused process
   * @param commandTarget how next commands name it: the core's path, or {@code -p PID}
   * @param lines where frames' PDBs are found, or null for no lines
   */
  public DacTarget(DacSession session, String commandTarget, SourceLines lines) {
    this.session = session;
    this.runtime = session.runtime();
    this.clrHeap = session.heap();
    this.commandTarget = commandTarget;
    this.lines = lines;
  }

  @Override
  public String describe() {
    return session.describe();
  }

  @Override
  public String commandTarget() {
    return commandTarget;
  }

  @Override
  public boolean isLive() {
    return session.isLive();
  }

  @Override
  public List<ThreadView> threads() {
    if (threads == null) {
      List<ThreadView> out = new ArrayList<>();
      Names names = new Names();
      for (ClrThread t : runtime.threads()) {
        if (t.osId() == 0 || t.isDead() || t.isUnstarted()) {
          continue;
        }
        out.add(
            new ThreadView(
                t.osId(),
                t.managedId(),
                names.of(t),
                t.isThreadPoolWorker(),
                t.finalizer(),
                t.currentException(),
                frames(runtime.stack(t.osId()), true)));
      }
      threads = List.copyOf(out);
    }
    return threads;
  }

  /**
   * Thread names: the {@code _name} of each {@code System.Threading.Thread} object a GC handle
   * holds (the runtime keeps every started thread's object in handles), by managed id. Handles are
   * few, and each is tested with one read of its object's method table.
   */
  private final class Names {
    private final Map<Integer, String> byManagedId = new HashMap<>();

    Names() {
      try {
        ClrType thread = runtime.typeByName("System.Threading.Thread");
        if (thread == null) {
          return;
        }
        long mt = thread.methodTable();
        List<Long> objects = new ArrayList<>();
        clrHeap.handles(
            r -> {
              if (r.object() != 0
                  && !objects.contains(r.object())
                  && methodTable(r.object()) == mt) {
                objects.add(r.object());
              }
            });
        for (long o : objects) {
          ClrObject t = clrHeap.object(o);
          String name = t.stringField("_name");
          if (name != null) {
            byManagedId.put(t.intField("_managedThreadId"), name);
          }
        }
      } catch (TargetException | IllegalArgumentException e) {
        // No names: threads are told apart by their ids.
      }
    }

    String of(ClrThread thread) {
      return byManagedId.get(thread.managedId());
    }
  }

  private long methodTable(long object) {
    try {
      return clrHeap.object(object).type().methodTable();
    } catch (TargetException e) {
      return 0;
    }
  }

  private List<FrameView> frames(List<StackFrame> stack, boolean innermostExact) {
    List<FrameLocation> where =
        lines == null ? null : runtime.frameLocations(stack, innermostExact);
    List<FrameView> out = new ArrayList<>(stack.size());
    for (int i = 0; i < stack.size(); i++) {
      StackFrame f = stack.get(i);
      FrameLocation at = where == null ? null : where.get(i);
      // A runtime frame that names a method is that method's: .NET 8 enters a contended Monitor
      // in a HelperMethodFrame of Monitor.ReliableEnter.
      boolean method = f.method() != null;
      out.add(
          new FrameView(
              method ? Stacks.simpleName(f) : "[" + f.frameName() + "]",
              at == null ? null : at.line(lines),
              f.sp(),
              !method));
    }
    return out;
  }

  @Override
  public List<StackRoot> stackRoots(int osId) {
    List<StackRoot> out = new ArrayList<>();
    clrHeap.stackRoots(
        osId,
        r -> {
          if (!r.interior() && r.object() != 0) {
            out.add(
                new StackRoot(
                    r.object(),
                    r.frame() == null ? 0 : r.frame().sp(),
                    r.frame() == null ? null : Stacks.simpleName(r.frame())));
          }
        });
    return out;
  }

  @Override
  public List<SyncBlock> syncBlocks() {
    return runtime.syncBlocks();
  }

  @Override
  public Integer lockOwner(long address) {
    try {
      ClrObject lock = clrHeap.object(address);
      if (!lock.type().name().equals("System.Threading.Lock")) {
        return null;
      }
      // The owner's OS thread id (Lock.OwningOSThreadId); named so from .NET 9 on.
      String field =
          lock.type().field("_owningThreadId") != null ? "_owningThreadId" : "_owningOsThreadId";
      int owner = lock.intField(field);
      return owner == 0 ? null : owner;
    } catch (TargetException | IllegalArgumentException e) {
      return null;
    }
  }

  @Override
  public String typeName(long address) {
    try {
      return clrHeap.object(address).type().name();
    } catch (TargetException e) {
      return null;
    }
  }

  @Override
  public long sizeOf(long address) {
    try {
      return clrHeap.object(address).size();
    } catch (TargetException e) {
      return 0;
    }
  }

  @Override
  public ExceptionView exception(long address) {
    try {
      return view(runtime.exception(address));
    } catch (TargetException e) {
      return null;
    }
  }

  private ExceptionView view(ExceptionInfo e) {
    if (e == null) {
      return null;
    }
    List<Frame> frames = new ArrayList<>();
    for (FrameView f : frames(e.stackTrace(), false)) {
      if (!f.runtime()) {
        frames.add(f.frame());
      }
    }
    return new ExceptionView(
        e.address(), e.type(), e.message(), e.hresultHex(), frames, view(e.inner()));
  }

  @Override
  public Signalled crashSignal() {
    DacSession.ThreadSignal s = session.crashSignal();
    return s == null ? null : new Signalled(s.osThreadId(), s.signal());
  }

  @Override
  public Map<String, Long> readyForFinalization() {
    Map<String, Long> byType = new LinkedHashMap<>();
    int typed = 0;
    for (FinalizerEntry e : runtime.finalizerQueue()) {
      if (!e.readyForFinalization()) {
        continue;
      }
      String type = typed++ < MAX_TYPED_FINALIZABLE ? typeName(e.object()) : null;
      byType.merge(type == null ? "(not read)" : type, 1L, Long::sum);
    }
    return byType;
  }

  @Override
  public List<ThreadPoolQueues.WorkItem> threadPoolQueue() {
    return ThreadPoolQueues.all(clrHeap);
  }

  @Override
  public PoolCounts threadPool() {
    try {
      ClrType pool = runtime.typeByName("System.Threading.PortableThreadPool");
      ClrField instance = pool == null ? null : pool.staticField("ThreadPoolInstance");
      Value v = instance == null ? null : runtime.staticValue(pool, instance);
      if (!(v instanceof Value.Reference r) || r.isNull()) {
        return null;
      }
      ClrObject p = clrHeap.object(r.address());
      int existing = 0;
      try {
        // ThreadCounts._data: work in progress in bits 0-15, existing threads in 16-31.
        ClrValue counts = p.structField("_separated").structField("counts");
        existing = (int) ((counts.longField("_data") >>> 16) & 0xffff);
      } catch (IllegalArgumentException e) {
        // Another layout: the workers are counted from the threads instead.
      }
      int blocked =
          p.type().field("_numBlockedThreads") != null ? p.intField("_numBlockedThreads") : -1;
      return new PoolCounts(
          p.intField("_minThreads"), p.intField("_maxThreads"), existing, blocked);
    } catch (TargetException | IllegalArgumentException e) {
      return null;
    }
  }

  @Override
  public List<Timers.TimerInfo> timers() {
    return Timers.all(clrHeap);
  }

  @Override
  public HeapSnapshot heap() {
    if (heap == null) {
      read(null);
    }
    return heap;
  }

  /** The heap graph read so far, or null when no check asked for it. */
  HeapSnapshot heapRead() {
    return heap;
  }

  @Override
  public HeapContents.Scan scanHeap(int minInvocations) {
    HeapContents.Scan scan = new HeapContents.Scan(clrHeap, true, true, false, minInvocations);
    if (heap == null) {
      read(scan);
    } else {
      long start = System.nanoTime();
      clrHeap.walk(scan);
      LOG.debug("heap scanned in {} ms", (System.nanoTime() - start) / 1_000_000);
    }
    return scan;
  }

  /** Reads the heap graph, {@code scan} (or null) riding on its walk. */
  private void read(HeapContents.Scan scan) {
    long start = System.nanoTime();
    HeapSnapshot h = scan == null ? clrHeap.snapshot() : clrHeap.snapshot(scan);
    LOG.debug("heap graph read in {} ms", (System.nanoTime() - start) / 1_000_000);
    // The dominator tree (retained sizes, reachability) is plain Java over the graph's arrays: it
    // is computed on a thread of its own while this one goes on reading through the DAC.
    Thread dominators =
        new Thread(
            () -> {
              long begun = System.nanoTime();
              h.reachableSize();
              LOG.debug("dominators in {} ms", (System.nanoTime() - begun) / 1_000_000);
            },
            "clrscope-triage-dominators");
    dominators.setDaemon(true);
    dominators.start();
    heap = h;
  }
}
