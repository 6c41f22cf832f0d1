package dev.clrscope.dac;

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
    LongSet named = new LongSet();
    int[] nextInterior = {0};
    long[] lastNamed = {0};
    // One visitor for every object: ten million of them must not each allocate one.
    Counted references = new Counted(b);
    boolean walked = false;
    WalkSummary walk;
    try {
      walk =
          heap.walkSegments(
              segments,
              o -> {
                if (also != null) {
                  also.visit(o);
                }
                long address = o.address();
                long end = address + o.alignedSize();
                int k = nextInterior[0];
                while (k < interior.length && interior[k] < end) {
                  if (interior[k] >= address) {
                    interiorObject[k] = address;
                  }
                  k++;
                }
                nextInterior[0] = k;
                ClrType type = o.type();
                if (type.isFree()) {
                  return;
                }
                references.count = 0;
                o.references(references);
                long mt = type.methodTable();
                // Runs of one type are the rule (arrays of a type, a list's items): one lookup
                // each.
                if (mt != lastNamed[0]) {
                  lastNamed[0] = mt;
                  if (named.add(mt)) {
                    b.typeName(mt, type.name());
                  }
                }
                b.object(address, o.size(), mt, references.count);
                if (o.segment().kind() == SegmentKind.FROZEN) {
                  b.root(address, HeapSnapshotBuilder.FROZEN_ROOT, null);
                }
              });
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
    return new Graph(b.build().orElseThrow(), List.copyOf(all), rootObjects);
  }

  /** Hands each reference to the builder and counts an object's. */
  private static final class Counted implements ReferenceVisitor {
    private final HeapSnapshotBuilder builder;
    int count;

    Counted(HeapSnapshotBuilder builder) {
      this.builder = builder;
    }

    @Override
    public void reference(long target, long offset) {
      builder.reference(target);
      count++;
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
