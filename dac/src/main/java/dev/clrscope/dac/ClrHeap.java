package dev.clrscope.dac;

import dev.clrscope.dac.TargetException.Problem;
import dev.clrscope.heapwalk.HeapSnapshot;
import dev.clrscope.heapwalk.PathSearch;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * A session's GC heap, as ClrMD's {@code ClrHeap} gives it: its heaps and segments, the walk of
 * every object, objects by address, the roots, and the exact object graph ({@link #snapshot}), read
 * once per session (a core's whole life, one pause of a live process) and shared by what needs
 * references: root paths, retained sizes, liveness. It stands on the {@link ClrRuntime} (threads,
 * statics and the finalization queue name the roots) and reads objects through the {@link
 * ClrReader}. Get it from {@link DacSession#heap}; every method may be called from any thread.
 */
public final class ClrHeap {
  private final DacSession session;
  private final ClrReader reader;
  private final ClrRuntime runtime;
  private final RootReader roots;
  private ExactHeap.Graph graph;

  ClrHeap(DacSession session, ClrReader reader, ClrRuntime runtime) {
    this.session = session;
    this.reader = reader;
    this.runtime = runtime;
    this.roots = new RootReader(session, reader, runtime);
  }

  /** The runtime this heap belongs to. */
  public ClrRuntime runtime() {
    return runtime;
  }

  // ---- heaps and segments ------------------------------------------------------------------

  /** The GC heaps with their generations and segments (regions). */
  public List<GcHeap> heaps() {
    return session.gcHeaps();
  }

  /** The segment holding {@code address}, or null when it is not in the GC heap. */
  public HeapSegment segmentOf(long address) {
    return reader.segmentOf(address);
  }

  /** The generation of the object at {@code address} (SOS's {@code gcwhere}), or null. */
  public Generation generationOf(long address) {
    HeapSegment s = segmentOf(address);
    return s == null ? null : s.generationOf(address);
  }

  // ---- the walk ----------------------------------------------------------------------------

  /** Visits every object of every segment. */
  public WalkSummary walk(HeapVisitor visitor) {
    return walk(s -> true, visitor);
  }

  /** Visits every object of the segments {@code segments} accepts. */
  public WalkSummary walk(Predicate<HeapSegment> segments, HeapVisitor visitor) {
    return session.call(
        () -> {
          List<HeapSegment> chosen = new ArrayList<>();
          for (GcHeap h : heaps()) {
            for (HeapSegment s : h.segments()) {
              if (segments.test(s)) {
                chosen.add(s);
              }
            }
          }
          return walkSegments(chosen, visitor);
        });
  }

  /** The objects of these segments, in this order. On the owner thread. */
  WalkSummary walkSegments(List<HeapSegment> segments, HeapVisitor visitor) {
    return walker().walk(segments, visitor);
  }

  /** A walker of this heap, not yet walking. On the owner thread. */
  HeapWalker walker() {
    return new HeapWalker(reader, allocationContexts());
  }

  /** The reader this heap reads through. */
  ClrReader reader() {
    return reader;
  }

  /** Per-type counts and sizes of the whole heap (dumpheap -stat). */
  public HeapStatistics statistics() {
    return session.call(
        () -> {
          LongMap<long[]> perType = new LongMap<>();
          List<ClrType> order = new ArrayList<>();
          WalkSummary summary =
              walk(
                  o -> {
                    long mt = o.type().methodTable();
                    long[] c = perType.get(mt);
                    if (c == null) {
                      c = new long[2];
                      perType.put(mt, c);
                      order.add(o.type());
                    }
                    c[0]++;
                    c[1] += o.size();
                  });
          List<HeapStatistics.TypeStat> stats = new ArrayList<>(order.size());
          for (ClrType t : order) {
            long[] c = perType.get(t.methodTable());
            stats.add(new HeapStatistics.TypeStat(t, c[0], c[1]));
          }
          return new HeapStatistics(stats, summary);
        });
  }

  // Where objects are being allocated: each thread's context, the global one and generation 0's.
  private List<long[]> allocationContexts() {
    List<long[]> contexts = new ArrayList<>();
    for (ClrThread t : runtime.threadsOnOwner()) {
      contexts.add(new long[] {t.allocContextPtr(), t.allocContextLimit()});
    }
    long[] global = session.sos().globalAllocationContext();
    if (global != null) {
      contexts.add(global);
    }
    for (GcHeap h : heaps()) {
      if (!h.generations().isEmpty()) {
        GcHeap.GenerationStart g0 = h.generations().get(0);
        contexts.add(new long[] {g0.allocContextPtr(), g0.allocContextLimit()});
      }
    }
    return contexts;
  }

  // ---- objects -----------------------------------------------------------------------------

  /**
   * The object at {@code address}, checked to be one: in a GC segment, with a method table the DAC
   * knows, and accepted by the DAC as an object.
   *
   * @throws TargetException {@link Problem#NOT_AN_OBJECT} with why not
   */
  public ClrObject object(long address) {
    return reader.object(address);
  }

  /**
   * The object that holds {@code address} (its start or anywhere inside it), found by walking its
   * segment.
   *
   * @throws TargetException {@link Problem#NOT_AN_OBJECT} when no object holds it
   */
  public ClrObject objectContaining(long address) {
    return session.call(
        () -> {
          HeapSegment segment = segmentOf(address);
          long[] found = new long[1];
          if (segment != null) {
            walkSegments(
                List.of(segment),
                o -> {
                  if (found[0] == 0
                      && Long.compareUnsigned(address, o.address()) >= 0
                      && Long.compareUnsigned(address, o.address() + o.alignedSize()) < 0) {
                    found[0] = o.address();
                  }
                });
          }
          if (found[0] == 0) {
            throw new TargetException(
                Problem.NOT_AN_OBJECT,
                "0x" + Long.toHexString(address) + " is not inside an object of the GC heap");
          }
          return reader.objectOnOwner(found[0]);
        });
  }

  /** What an object keeps alive by itself and through its references: SOS's {@code objsize}. */
  public record ObjectSize(long objects, long bytes) {}

  /**
   * The object at {@code address} and every object it reaches through references, counted once each
   * (SOS's {@code objsize}: sizes as SOS counts them).
   */
  public ObjectSize objectSize(long address) {
    return session.call(
        () -> {
          reader.objectOnOwner(address);
          LongSet seen = new LongSet();
          ArrayDeque<Long> todo = new ArrayDeque<>();
          seen.add(address);
          todo.add(address);
          long objects = 0;
          long bytes = 0;
          while (!todo.isEmpty()) {
            session.checkStop();
            long at = todo.poll();
            ClrType type = reader.typeOrNull(reader.readLongOrZero(at) & ~7L);
            if (type == null) {
              continue;
            }
            long count =
                type.componentSize() == 0
                    ? 0
                    : Integer.toUnsignedLong(reader.readIntOrZero(at + 8));
            objects++;
            bytes += type.instanceSize(count);
            reader.forEachReference(
                at,
                (ref, offset) -> {
                  if (seen.add(ref)) {
                    todo.add(ref);
                  }
                });
          }
          return new ObjectSize(objects, bytes);
        });
  }

  // ---- roots -------------------------------------------------------------------------------

  /**
   * Every root: GC handles of every kind (weak ones included: see {@link RootKind#isStrong}), each
   * thread's stack references, objects ready for finalization, static fields and thread-static
   * fields holding objects. Statics live in arrays a pinned handle holds, so an object a static
   * holds is reached both from that handle and, named, from its static root.
   */
  public void roots(RootVisitor visitor) {
    session.run(
        () -> {
          roots.handles(visitor);
          roots.stacks(visitor);
          roots.finalizerRoots(visitor);
          roots.statics(visitor);
          roots.threadStatics(visitor);
        });
  }

  /** The GC handles. */
  public void handles(RootVisitor visitor) {
    session.run(() -> roots.handles(visitor));
  }

  /** The references on one thread's stack. */
  public void stackRoots(int osThreadId, RootVisitor visitor) {
    session.run(() -> roots.stack(osThreadId, visitor));
  }

  /** Static fields that hold objects. */
  public void staticRoots(RootVisitor visitor) {
    session.run(() -> roots.statics(visitor));
  }

  /** Thread-static fields that hold objects, per thread. */
  public void threadStaticRoots(RootVisitor visitor) {
    session.run(() -> roots.threadStatics(visitor));
  }

  // ---- the exact graph ---------------------------------------------------------------------

  /**
   * The exact object graph: every object, its references and every root, in heapwalk's snapshot
   * (retained sizes, dominators, paths from roots, a .gcdump). Objects no root reaches are left
   * unreachable, apart from the live ones. Read on the first call and kept for the session (about
   * 20 bytes per object and 4 per reference): later calls, and {@link #rootPaths}, cost no walk.
   */
  public HeapSnapshot snapshot() {
    return session.call(() -> graph().snapshot());
  }

  /**
   * {@link #snapshot}, with {@code also} visiting every object of the heap (free space included) as
   * {@link #walk} would: when the session has not read its graph yet, in the graph's own walk, one
   * walk where two were needed; otherwise in a walk of its own.
   */
  public HeapSnapshot snapshot(HeapVisitor also) {
    return session.call(
        () -> {
          if (graph == null) {
            graph = ExactHeap.read(this, roots, also);
          } else {
            walkSegments(ExactHeap.segmentsInOrder(this), also);
          }
          return graph.snapshot();
        });
  }

  private ExactHeap.Graph graph() {
    if (graph == null) {
      graph = ExactHeap.read(this, roots);
    }
    return graph;
  }

  /**
   * The paths by which roots keep the object at {@code address} alive (SOS's {@code gcroot}): for
   * each root that reaches it, a shortest path from that root, up to {@code maxPaths}. Stack roots
   * come first, then statics and thread statics, handles, and the finalization queue. Weak handles
   * keep nothing alive and are left out unless {@code includeWeak}. A search over the session's
   * {@link #snapshot}: the first call reads it, the next ones walk no heap.
   */
  public List<RootPath> rootPaths(long address, int maxPaths, boolean includeWeak) {
    return session.call(
        () -> {
          reader.objectOnOwner(address);
          ExactHeap.Graph g = graph();
          HeapSnapshot snapshot = g.snapshot();
          PathSearch search = new PathSearch(snapshot, snapshot.indexOf(address));
          List<RootPath> out = new ArrayList<>();
          for (int pass = 0; pass < ROOT_ORDER.size() && out.size() < maxPaths; pass++) {
            Predicate<Root> inPass = ROOT_ORDER.get(pass);
            for (int r = 0; r < g.roots().size() && out.size() < maxPaths; r++) {
              Root root = g.roots().get(r);
              if (!inPass.test(root) || (!includeWeak && !root.kind().isStrong())) {
                continue;
              }
              session.checkStop();
              int start = g.rootObjects()[r] == 0 ? -1 : snapshot.indexOf(g.rootObjects()[r]);
              int[] path = start < 0 ? null : search.pathFrom(start);
              if (path != null) {
                List<Long> objects = new ArrayList<>(path.length);
                for (int i : path) {
                  objects.add(snapshot.addressOf(i));
                }
                out.add(new RootPath(root, List.copyOf(objects)));
              }
            }
          }
          return out;
        });
  }

  /**
   * The order {@code gcroot} names roots in: stack slots, statics, thread statics, handles (a
   * dependent handle is no root: it ties its secondary object to its primary one, an edge of the
   * graph), the finalization queue.
   */
  private static final List<Predicate<Root>> ROOT_ORDER =
      List.of(
          r -> r.kind() == RootKind.STACK,
          r -> r.kind() == RootKind.STATIC_FIELD,
          r -> r.kind() == RootKind.THREAD_STATIC_FIELD,
          r ->
              switch (r.kind()) {
                case STACK, STATIC_FIELD, THREAD_STATIC_FIELD, FINALIZER_QUEUE, DEPENDENT_HANDLE ->
                    false;
                default -> true;
              },
          r -> r.kind() == RootKind.FINALIZER_QUEUE);
}
