package dev.clrscope.dac;

import dev.clrscope.heapwalk.Beside;
import dev.clrscope.heapwalk.HeapSnapshot;
import dev.clrscope.heapwalk.HeapSnapshotBuilder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The exact object graph of a core dump or a paused process, read through the DAC into heapwalk's
 * primitive-array {@link HeapSnapshot}: every object of every segment in address order (free space
 * left out), its references, and every root the runtime has. Weak handles keep nothing alive and
 * are left out; dependent handles tie their secondary object to their primary one, as the GC does;
 * the objects of frozen segments are roots of their own. An object no root reaches is garbage the
 * GC has not collected yet: the snapshot reports it apart, never as live.
 */
final class ExactHeap {
  private ExactHeap() {}

  /**
   * The graph a heap view reads once: the snapshot, and every root with the object it holds
   * (interior pointers resolved to the object that contains them; 0 for none), for root paths.
   */
  @SuppressWarnings("ArrayRecordComponent") // read only, by the heap view that holds it
  record Graph(HeapSnapshot snapshot, List<Root> roots, long[] rootObjects) {}

  /** Every segment of the heap, in address order: the order the graph's walk reads them in. */
  static List<HeapSegment> segmentsInOrder(ClrHeap heap) {
    List<HeapSegment> segments = new ArrayList<>();
    heap.heaps().forEach(h -> segments.addAll(h.segments()));
    segments.sort((x, y) -> Long.compareUnsigned(x.start(), y.start()));
    return segments;
  }

  /** Reads the graph; on the owner thread. */
  static Graph read(ClrHeap heap, RootReader roots) {
    return read(heap, roots, null);
  }

  /**
   * Reads the graph, {@code also} (when not null) visiting every object of the same walk, free
   * space included: what else a reader needs of each object costs no walk of its own.
   */
  static Graph read(ClrHeap heap, RootReader roots, HeapVisitor also) {
    HeapSnapshotBuilder b = HeapSnapshotBuilder.exact(8);
    List<Root> all = new ArrayList<>();
    // Statics first: where a static field and another root hold the same object, the path that
    // names the field is the one shown.
    roots.statics(all::add);
    roots.threadStatics(all::add);
    roots.stacks(all::add);
    roots.handles(all::add);
    roots.finalizerRoots(all::add);
    long[] interior = interiorAddresses(all);
    long[] interiorObject = new long[interior.length];
    List<HeapSegment> segments = segmentsInOrder(heap);
    // One visitor for every object: ten million of them must not each allocate one.
    GraphVisitor first = new GraphVisitor(b, also, interior, interiorObject, 0);
    int split = also == null ? splitPoint(segments) : -1;
    boolean walked = false;
    WalkSummary walk;
    try {
      walk =
          split < 0
              ? heap.walkSegments(segments, first)
              : walkInTwo(heap, segments, split, first, interior, interiorObject);
      // Every object is in the builder's columns once this returns (they are filled beside the
      // walk).
      b.walkEnded();
      walked = true;
    } finally {
      if (!walked) {
        // Stopped or failed: the builder's second thread ends with the walk.
        b.abandon();
      }
    }
    HeapProblems problems = walk.problems();
    for (HeapProblem p : problems.first()) {
      b.problem(p.describe());
    }
    if (problems.count() > problems.first().size()) {
      b.problem(
          (problems.count() - problems.first().size())
              + " more segments could not be walked to their end");
    }
    Map<String, Integer> byKind = new LinkedHashMap<>();
    problems.byKind().forEach((kind, n) -> byKind.put(kind.key(), n));
    b.notWalked(byKind, problems.bytesNotWalked());
    long[] rootObjects = new long[all.size()];
    for (int i = 0; i < all.size(); i++) {
      Root r = all.get(i);
      long object = r.object();
      if (r.interior()) {
        int k = Arrays.binarySearch(interior, object);
        object = k >= 0 ? interiorObject[k] : 0;
        if (object == 0) {
          continue; // a pointer into no object (a stack slot past its use)
        }
      }
      rootObjects[i] = object;
      switch (r.kind()) {
        case DEPENDENT_HANDLE -> b.dependent(r.object(), r.secondary());
        case STATIC_FIELD ->
            b.root(
                object,
                HeapSnapshotBuilder.STATIC_ROOT,
                r.declaringType() + "." + r.field().name());
        case THREAD_STATIC_FIELD ->
            b.root(
                object,
                HeapSnapshotBuilder.STATIC_ROOT,
                r.declaringType() + "." + r.field().name() + " (thread " + r.osThreadId() + ")");
        case STACK ->
            b.root(
                object,
                STACK_ROOT,
                "thread " + r.osThreadId() + (r.frame() == null ? "" : " " + r.frame().display()));
        case FINALIZER_QUEUE -> b.root(object, FINALIZER_ROOT, null);
        case SIZED_REF_HANDLE -> b.root(object, SIZED_REF_ROOT, null);
        default -> {
          if (r.kind().isStrong()) {
            b.root(object, HANDLE_ROOT, r.kind().label() + " 0x" + Long.toHexString(r.location()));
          }
        }
      }
    }
    Graph gg = new Graph(b.build().orElseThrow(), List.copyOf(all), rootObjects);
    return gg;
  }

  /**
   * Heaps of fewer bytes than this are walked on one thread: a second costs more than it saves (a
   * thread, a second builder and their hand-overs). The system property {@code
   * clrscope.heap.twoWalksFrom} sets another bound: the tests walk small cores in two with 0.
   */
  static final long TWO_WALKS_FROM = Long.getLong("clrscope.heap.twoWalksFrom", 64L << 20);

  /**
   * Where to cut the segments into two walks of about as many bytes each, on two cores or more: the
   * index of the later walk's first segment, or -1 to walk them on one thread (a small heap, one
   * segment that is most of it).
   */
  static int splitPoint(List<HeapSegment> segments) {
    if (segments.size() < 2 || Runtime.getRuntime().availableProcessors() < 2) {
      return -1;
    }
    long total = 0;
    for (HeapSegment s : segments) {
      total += s.end() - s.start();
    }
    if (total < TWO_WALKS_FROM) {
      return -1;
    }
    long before = 0;
    int best = -1;
    long bestGap = Long.MAX_VALUE;
    for (int k = 1; k < segments.size(); k++) {
      HeapSegment s = segments.get(k - 1);
      before += s.end() - s.start();
      long gap = Math.abs(total - 2 * before);
      if (gap < bestGap) {
        bestGap = gap;
        best = k;
      }
    }
    // Halves further apart than 3 to 1 gain little over one walk (a bound of 0 walks every heap of
    // two segments or more in two).
    return bestGap <= total / 2 || TWO_WALKS_FROM == 0 ? best : -1;
  }

  /**
   * The segments from {@code split} on walked into a builder of their own on a second thread,
   * beside this thread's walk of those before it into {@code first}'s: the builder then takes the
   * second's objects after its own ({@link HeapSnapshotBuilder#append}), so the graph is the one a
   * single walk makes. The second walk asks this thread for the types it meets ({@link
   * TypeRequests}); either walk failing stops the other, and the first failure is the one thrown.
   */
  private static WalkSummary walkInTwo(
      ClrHeap heap,
      List<HeapSegment> segments,
      int split,
      GraphVisitor first,
      long[] interior,
      long[] interiorObject) {
    HeapSnapshotBuilder later = HeapSnapshotBuilder.exact(8);
    GraphVisitor second =
        new GraphVisitor(later, null, interior, interiorObject, segments.get(split).start());
    TypeRequests requests = new TypeRequests(heap.reader());
    HeapWalker mine = heap.walker().serving(requests);
    HeapWalker theirs = heap.walker().beside(requests);
    List<HeapSegment> upper = List.copyOf(segments.subList(split, segments.size()));
    Beside<WalkSummary> other =
        Beside.run(
            "clrscope-dac walk",
            true,
            () -> {
              try {
                WalkSummary w = theirs.walk(upper, second);
                later.walkEnded();
                return w;
              } catch (RuntimeException | Error e) {
                requests.close();
                later.abandon();
                throw e;
              } finally {
                requests.ended();
              }
            });
    WalkSummary lower;
    try {
      lower = mine.walk(segments.subList(0, split), first);
      requests.serveUntilEnded();
    } catch (RuntimeException | Error e) {
      requests.close();
      try {
        other.get();
      } catch (RuntimeException | Error cause) {
        if (e instanceof TypeRequests.OtherHalfStopped) {
          throw cause; // the later walk failed first: its failure is the one to say
        }
      }
      throw e;
    }
    WalkSummary upperWalk = other.get();
    first.builder.walkEnded();
    first.builder.append(later);
    return WalkSummary.concat(lower, upperWalk);
  }

  /**
   * What each object of the graph's walk goes through: its references and itself into a builder,
   * its type named the first time, interior roots pointing into it resolved to it. One per walk.
   */
  private static final class GraphVisitor implements HeapVisitor {
    final HeapSnapshotBuilder builder;
    private final HeapVisitor also;
    private final long[] interior;
    private final long[] interiorObject;
    private int nextInterior;
    private final LongSet named = new LongSet();
    // The method tables named last, by a few of their bits: heaps interleave a few types (an
    // object, its string, its array), each then named with no lookup of the set.
    private final long[] lastNamed = new long[64];
    private final HeapObject.ReferenceRuns runs;

    GraphVisitor(
        HeapSnapshotBuilder builder,
        HeapVisitor also,
        long[] interior,
        long[] interiorObject,
        long from) {
      this.builder = builder;
      this.also = also;
      this.interior = interior;
      this.interiorObject = interiorObject;
      int k = Arrays.binarySearch(interior, from);
      this.nextInterior = k >= 0 ? k : -k - 1;
      this.runs = builder::references;
    }

    @Override
    public void visit(HeapObject o) {
      if (also != null) {
        also.visit(o);
      }
      long address = o.address();
      long end = address + o.alignedSize();
      int k = nextInterior;
      while (k < interior.length && interior[k] < end) {
        if (interior[k] >= address) {
          interiorObject[k] = address;
        }
        k++;
      }
      nextInterior = k;
      ClrType type = o.type();
      if (type.isFree()) {
        return;
      }
      long mt = type.methodTable();
      int recent = (int) (mt >>> 3) & (lastNamed.length - 1);
      if (mt != lastNamed[recent]) {
        lastNamed[recent] = mt;
        if (named.add(mt)) {
          builder.typeName(mt, type.name());
        }
      }
      int gathered = o.gatherReferences();
      if (gathered >= 0) {
        builder.object(address, o.size(), mt, o.gathered(), gathered);
      } else {
        builder.object(address, o.size(), mt, (int) o.referenceRuns(runs));
      }
      if (o.segment().kind() == SegmentKind.FROZEN) {
        builder.root(address, HeapSnapshotBuilder.FROZEN_ROOT, null);
      }
    }
  }

  /** The runtime's GCRootKind numbers, which the snapshot's root kinds are. */
  private static final int STACK_ROOT = 0;

  private static final int FINALIZER_ROOT = 1;
  private static final int HANDLE_ROOT = 2;
  private static final int SIZED_REF_ROOT = 4;

  private static long[] interiorAddresses(List<Root> roots) {
    long[] out = roots.stream().filter(Root::interior).mapToLong(Root::object).distinct().toArray();
    // User-space addresses are below 2^63: signed order is address order.
    Arrays.sort(out);
    return out;
  }
}
