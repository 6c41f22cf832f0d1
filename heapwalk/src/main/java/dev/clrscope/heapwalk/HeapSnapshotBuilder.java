package dev.clrscope.heapwalk;

import dev.clrscope.nettrace.NetTraceFormatException;
import dev.clrscope.nettrace.TraceEvent;
import dev.clrscope.nettrace.events.RuntimeEvent;
import dev.clrscope.nettrace.events.RuntimeEvents;
import dev.clrscope.nettrace.events.RuntimePayload;
import dev.clrscope.nettrace.events.RuntimePayload.BulkRootCwt;
import dev.clrscope.nettrace.events.RuntimePayload.BulkRootEdge;
import dev.clrscope.nettrace.events.RuntimePayload.BulkRootStaticVar;
import dev.clrscope.nettrace.events.RuntimePayload.BulkType;
import dev.clrscope.nettrace.events.RuntimePayload.BulkTypeValue;
import dev.clrscope.nettrace.events.RuntimePayload.GcBulkRootCwt;
import dev.clrscope.nettrace.events.RuntimePayload.GcBulkRootEdge;
import dev.clrscope.nettrace.events.RuntimePayload.GcBulkRootStaticVar;
import dev.clrscope.nettrace.events.RuntimePayload.GcEnd;
import dev.clrscope.nettrace.events.RuntimePayload.GcStart;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * Turns the runtime's heap-walk events into a {@link HeapSnapshot}. The runtime walks the heap only
 * during a GC that a session forced (keyword GCHeapCollect): the first blocking gen2 GC induced
 * after the session started (GCStart depth 2, type NonConcurrent, reason Induced) is the walk, its
 * GCEnd the end. In between come objects (GCBulkNode), their references in the same order
 * (GCBulkEdge: object i owns the next EdgeCount references), roots (GCBulkRootEdge; static fields
 * in GCBulkRootStaticVar), dependent handles (a key keeps its value alive) and type names
 * (BulkType). Each of the three streams numbers its events from 0: a gap is an event lost, said in
 * {@link HeapSnapshot#problems()}, never silently turned into a wrong graph.
 *
 * <p>The graph is built as the events arrive, on the thread that reads them: each object goes into
 * primitive columns and into the index of the pages it lies on ({@link PageIndex}), with no object
 * allocated per row, so that when the walk's GCEnd comes only the references are left to resolve
 * ({@link #graph()}). What comes after the GCEnd (the GC's own sizes, the module names of the
 * rundown at the session's end) is kept apart and may arrive on the reading thread while another
 * builds the graph; {@link #complete} adds it.
 */
public final class HeapSnapshotBuilder {
  private enum State {
    WAITING,
    WALKING,
    DONE
  }

  /** Stream indexes: objects, references, roots. */
  private static final int NODES = 0;

  private static final int EDGES = 1;
  private static final int ROOTS = 2;
  private static final String[] STREAM = {"GCBulkNode", "GCBulkEdge", "GCBulkRootEdge"};

  private State state = State.WAITING;
  private long gcNumber = -1;

  /** A GC that ended while the walk's rows came before its GCStart: the walk's GC, if it starts. */
  private long endedUnnumbered = -1;

  private final long[] nextIndex = new long[3];
  private final List<String> problems = new ArrayList<>();

  /** Where an exact walk stopped, per kind, and the bytes it left: {@link #notWalked}. */
  private final Map<String, Integer> stopsByKind = new java.util.LinkedHashMap<>();

  private long bytesNotWalked;
  private final Map<Long, String> typeNames = new HashMap<>();

  /** The runtime's type ids in the order objects first named them: an object's type is an index. */
  private final TypeIds typeIds = new TypeIds();

  private final LongColumn address = new LongColumn();
  private PageIndex pages;
  private final IntColumn size = new IntColumn();
  private final Map<Integer, Long> bigSizes = new HashMap<>();
  private final IntColumn type = new IntColumn();

  /** Where each object's references start: the references the objects before it claimed. */
  private final IntColumn firstEdge = new IntColumn();

  private long claimedEdges;
  private final LongColumn target = new LongColumn();
  private final RuntimeEvents.BulkNodes nodeRows = new RuntimeEvents.BulkNodes();
  private final RuntimeEvents.BulkEdges edgeRows = new RuntimeEvents.BulkEdges();
  private final LongColumn rootAddress = new LongColumn();
  private final IntColumn rootKind = new IntColumn();
  private final LongColumn dependentKey = new LongColumn();
  private final LongColumn dependentValue = new LongColumn();

  /**
   * Takes one event of the session; anything but the runtime's heap events is ignored. Called on
   * one thread; after the walk's GCEnd only the GC's sizes and the module names are taken, which
   * {@link #graph()} on another thread does not read.
   */
  public void accept(TraceEvent e) {
    String provider = e.providerName();
    if (RuntimeEvents.RUNDOWN_PROVIDER.equals(provider)) {
      if (e.eventId() == MODULE_DC_END) {
        module(e);
      }
      return;
    }
    if (!RuntimeEvents.RUNTIME_PROVIDER.equals(provider) || !e.metadata().fields().isEmpty()) {
      return;
    }
    int id = e.eventId();
    if (state == State.DONE) {
      if (id == GC_HEAP_STATS && heapStats == null) {
        heapStats(e);
      }
      return;
    }
    try {
      if (state == State.WAITING && (id == BULK_NODE || id == BULK_EDGE || id == BULK_ROOT_EDGE)) {
        // The walk's rows before its GCStart: the GC's threads write their own runs, and with the
        // segments GC in server mode (.NET 10.0.12) the walking thread's runs were read before the
        // run of the thread that started the GC. The session asks for this one walk alone.
        state = State.WALKING;
      }
      if (id == BULK_NODE || id == BULK_EDGE) {
        // The walk's millions of rows: straight into the columns, no record per row.
        if (state == State.WALKING) {
          if (id == BULK_NODE) {
            nodeRows.read(e);
            index(NODES, nodeRows.index());
            addNodes(nodeRows, e.header().pointerSize());
          } else {
            edgeRows.read(e);
            index(EDGES, edgeRows.index());
            target.addAll(edgeRows.target(), edgeRows.count());
          }
        }
        return;
      }
      Optional<RuntimePayload> decoded = RuntimeEvents.decode(e);
      if (decoded.isPresent()) {
        accept(decoded.get());
      }
    } catch (NetTraceFormatException ex) {
      if (state == State.WALKING) {
        problems.add("an undecodable event " + id + ": " + ex.getMessage());
      }
    }
  }

  private void accept(RuntimePayload p) {
    if (p instanceof BulkType t) {
      // Type rows may come before the walk (statics) or during it: keep them all.
      for (BulkTypeValue v : t.values()) {
        String name = TypeNames.readable(v.name());
        if (definitions != null && mayBeNested(name)) {
          // Named whole by complete(), once the modules are known; until then a name of its own,
          // so that types of one short name (every class's <>c) stay apart.
          unqualified.put(v.typeId(), v);
          name = name + UNRESOLVED + Long.toHexString(v.typeId());
        }
        typeNames.put(v.typeId(), name);
        typeModules.put(v.typeId(), v.moduleId());
      }
    } else if (p instanceof GcStart s) {
      boolean induced = s.depth() == 2 && s.type() == 0 && s.reason() == 1;
      if (induced && (state == State.WAITING || (state == State.WALKING && gcNumber < 0))) {
        state = endedUnnumbered == s.count() ? State.DONE : State.WALKING;
        gcNumber = s.count();
      }
    } else if (p instanceof GcEnd end) {
      if (state == State.WALKING && end.count() == gcNumber) {
        state = State.DONE;
      } else if (state == State.WALKING && gcNumber < 0) {
        // Its GCStart still to come (see above): ends the walk once that names the same GC.
        endedUnnumbered = end.count();
      }
    } else if (state == State.WALKING && p instanceof GcBulkRootEdge r) {
      index(ROOTS, r.index());
      for (BulkRootEdge v : r.values()) {
        addRoot(v.rootedNodeAddress(), v.gcRootKind());
      }
    } else if (state == State.WALKING && p instanceof GcBulkRootStaticVar statics) {
      for (BulkRootStaticVar v : statics.values()) {
        addRoot(v.objectId(), STATIC_ROOT);
        if (!v.fieldName().isEmpty()) {
          rootNames.put(rootAddress.size() - 1, v.fieldName());
        }
      }
    } else if (state == State.WALKING && p instanceof GcBulkRootCwt handles) {
      for (BulkRootCwt v : handles.values()) {
        dependentKey.add(v.gcKeyNodeId());
        dependentValue.add(v.gcValueNodeId());
      }
    }
  }

  /**
   * A builder fed directly with a heap's objects rather than the runtime's events: a core dump or a
   * paused process read through its DAC. Its roots are exact (every root the runtime has, frozen
   * objects given as {@link #FROZEN_ROOT}), so an object that no root reaches is garbage not yet
   * collected: reported apart as unreachable, never hung off the roots as the event walk's
   * unreferenced objects are. Objects come in address order: {@link #reference} each reference of
   * an object, then {@link #object} the object; roots and dependent handles at any time; then
   * {@link #build()}.
   *
   * @param pointerSize the target's pointer size in bytes
   */
  public static HeapSnapshotBuilder exact(int pointerSize) {
    HeapSnapshotBuilder b = new HeapSnapshotBuilder();
    b.state = State.WALKING;
    b.exactRoots = true;
    b.exactPointerSize = pointerSize;
    return b;
  }

  /** Whether the roots are exact: see {@link #exact}. */
  private boolean exactRoots;

  private int exactPointerSize;

  /**
   * How many objects the first batch holds; each batch after holds twice as many as the one before,
   * up to {@link #LARGEST_BATCH}. Each hand-over between the walk's thread and the columns' costs a
   * wake-up of the other (a millisecond or more on a virtual machine's idle core): a heap of
   * millions of objects wants few of them, a small heap its objects moved while it is walked.
   */
  private static final int FIRST_BATCH = 4096;

  private static final int LARGEST_BATCH = 1 << 17;

  /**
   * The objects and references {@link #object} and {@link #reference} have taken and not yet moved
   * into the columns.
   */
  private Batch batch = new Batch(FIRST_BATCH);

  /** How many objects the next batch holds. */
  private int batchSize = FIRST_BATCH;

  /** Moves full batches into the columns beside the walk, on two cores or more; else null. */
  private Mover mover;

  /** Names type {@code typeId} (of an exact builder: the method table). */
  public void typeName(long typeId, String name) {
    typeNames.put(typeId, name);
  }

  /** One reference of the object {@link #object} takes next (0: none, not to be given). */
  public void reference(long targetAddress) {
    Batch f = batch;
    f.targets[f.references++] = targetAddress;
    if (f.references == f.targets.length) {
      flushObjects();
    }
  }

  /**
   * The next object, in address order, after its {@code references} references were given to {@link
   * #reference}.
   */
  public void object(long objectAddress, long objectSize, long typeId, int references) {
    Batch f = batch;
    int i = f.objects++;
    f.address[i] = objectAddress;
    f.size[i] = objectSize;
    f.type[i] = typeId;
    f.edges[i] = references;
    if (i + 1 == f.address.length) {
      flushObjects();
    }
  }

  /**
   * The next object, in address order, with its references {@code targets[0..n)} (none 0): {@link
   * #reference} of each, then {@link #object(long, long, long, int)}.
   */
  public void object(long objectAddress, long objectSize, long typeId, long[] targets, int n) {
    references(targets, n);
    object(objectAddress, objectSize, typeId, n);
  }

  /** {@link #reference} of each of {@code targets[0..n)}. */
  public void references(long[] targets, int n) {
    Batch f = batch;
    int at = f.references;
    if (at + n <= f.targets.length) {
      long[] into = f.targets;
      for (int k = 0; k < n; k++) {
        into[at + k] = targets[k];
      }
      f.references = at + n;
      if (f.references == f.targets.length) {
        // Full to the last slot, as reference() leaves no batch.
        flushObjects();
      }
    } else {
      for (int k = 0; k < n; k++) {
        reference(targets[k]);
      }
    }
  }

  private void flushObjects() {
    Batch f = batch;
    if (f.objects == 0 && f.references == 0) {
      return;
    }
    if (mover == null && Runtime.getRuntime().availableProcessors() >= 2) {
      mover = new Mover();
    }
    if (mover == null) {
      moveIntoColumns(f);
    } else {
      batchSize = Math.min(2 * batchSize, LARGEST_BATCH);
      batch = mover.handOver(f).atLeast(batchSize);
    }
  }

  /** A batch's references, then its objects, into the columns; the batch is left empty. */
  private void moveIntoColumns(Batch f) {
    target.addAll(f.targets, f.references);
    if (f.objects > 0) {
      addNodes(f.address, f.size, f.type, f.edges, f.objects, exactPointerSize);
    }
    f.objects = 0;
    f.references = 0;
  }

  /**
   * Ends an exact builder's walk that failed or was stopped: the thread that moved its batches ends
   * too. Nothing is built after it.
   */
  public void abandon() {
    if (mover != null) {
      mover.abandon();
      mover = null;
    }
    state = State.DONE;
  }

  /**
   * An exact walk's objects and references, in batches: the walk fills one while the columns take
   * another. Their references go into the column of targets in the order given, and each object
   * claims the next of them as it comes: which batch a reference arrives in does not matter.
   */
  private static final class Batch {
    final long[] address;
    final long[] size;
    final long[] type;
    final long[] edges;
    int objects;
    // Most objects hold a reference or two: a batch of references fills about when its objects do.
    final long[] targets;
    int references;

    Batch(int objects) {
      address = new long[objects];
      size = new long[objects];
      type = new long[objects];
      edges = new long[objects];
      targets = new long[4 * objects];
    }

    /** An empty batch of {@code objects} objects: this one if it holds as many, else a new one. */
    Batch atLeast(int objects) {
      return address.length >= objects ? this : new Batch(objects);
    }
  }

  /**
   * The columns of an exact walk filled on a thread of their own, beside the walk's: a third of the
   * walk of a large heap is moving its objects and references into the columns and the page index.
   * The walk's thread writes only the batches it fills and the builder's other fields (type names,
   * roots, problems); this one only the columns the batches go into. Three batches go round: one
   * being filled, one being moved, one waiting.
   */
  private final class Mover {
    private final ArrayBlockingQueue<Batch> full = new ArrayBlockingQueue<>(3);
    private final ArrayBlockingQueue<Batch> empty = new ArrayBlockingQueue<>(3);
    private final Beside<Void> thread;
    private volatile Throwable failed;
    private volatile boolean stopped;

    Mover() {
      empty.add(new Batch(FIRST_BATCH));
      empty.add(new Batch(FIRST_BATCH));
      thread = Beside.run("clrscope-graph-columns", true, this::run);
    }

    private Void run() {
      try {
        while (!stopped) {
          Batch b = full.poll(100, TimeUnit.MILLISECONDS);
          if (b == null) {
            continue;
          }
          if (b.objects < 0) {
            break; // the end of the walk
          }
          moveIntoColumns(b);
          empty.add(b);
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (RuntimeException | Error e) { // an OutOfMemoryError is the walk's to throw
        // Said to the walk at its next hand-over, rather than once it has ended.
        failed = e;
        throw e;
      }
      return null;
    }

    /** Gives {@code b} to be moved; returns an empty batch to fill. */
    Batch handOver(Batch b) {
      put(b);
      return waitFor(() -> empty.poll(100, TimeUnit.MILLISECONDS));
    }

    /** Waits until every batch handed over is in the columns. */
    void finish() {
      Batch end = new Batch(0);
      end.objects = -1;
      put(end);
      thread.get();
    }

    /** Ends the thread, within 100 ms, with what it was given left unmoved. */
    void abandon() {
      stopped = true;
      try {
        thread.get();
      } catch (RuntimeException | Error e) {
        // Abandoned: what went wrong there is not the caller's concern.
      }
    }

    private void put(Batch b) {
      waitFor(() -> full.offer(b, 100, TimeUnit.MILLISECONDS) ? b : null);
    }

    /** One wait of at most 100 ms: a batch, or null when the time ran out. */
    private interface Wait {
      Batch once() throws InterruptedException;
    }

    /**
     * Waits until {@code wait} gives a batch, or the thread has failed (its failure thrown here);
     * an interrupt is kept for the walk's thread to hear of afterwards.
     */
    private Batch waitFor(Wait wait) {
      boolean interrupted = false;
      try {
        while (true) {
          rethrow();
          try {
            Batch b = wait.once();
            if (b != null) {
              return b;
            }
          } catch (InterruptedException e) {
            interrupted = true;
          }
        }
      } finally {
        if (interrupted) {
          Thread.currentThread().interrupt();
        }
      }
    }

    private void rethrow() {
      if (failed != null) {
        thread.get(); // throws what the thread threw
      }
    }
  }

  /**
   * A root of an exact builder: the object it holds, its kind (the runtime's GCRootKind numbers,
   * {@link #STATIC_ROOT}, {@link #FROZEN_ROOT}) and what names it (a static field as {@code
   * Namespace.Type.Field}, a thread and its method), or null.
   */
  public void root(long objectAddress, int kind, String name) {
    addRoot(objectAddress, kind);
    if (name != null) {
      rootNames.put(rootAddress.size() - 1, name);
    }
  }

  /** A dependent handle: while {@code key} lives, {@code value} does. */
  public void dependent(long key, long value) {
    dependentKey.add(key);
    dependentValue.add(value);
  }

  /** Something the exact walk could not read, said in the snapshot's problems. */
  public void problem(String what) {
    problems.add(what);
  }

  /**
   * Where the exact walk had to stop before segments' ends, counted by kind, and the bytes of the
   * heap it left ({@link WalkProblems}); each place is said in words through {@link #problem}.
   */
  public void notWalked(Map<String, Integer> placesByKind, long bytes) {
    placesByKind.forEach((kind, n) -> stopsByKind.merge(kind, n, Integer::sum));
    bytesNotWalked += bytes;
  }

  /**
   * Takes what {@code later}, an exact builder of another walk of segments that all lie above this
   * one's (walked beside it, on another thread), was given: its objects and their references come
   * after this builder's, numbered as one walk would have numbered them; its roots (its frozen
   * objects) after this one's so far, its type names and problems. Once both walks have ended
   * ({@link #walkEnded}), before this builder is given anything else; {@code later} is used up.
   */
  public void append(HeapSnapshotBuilder later) {
    if (!exactRoots
        || !later.exactRoots
        || later == this
        || tail != null
        || later.tail != null
        || state != State.DONE
        || later.state != State.DONE) {
      throw new IllegalStateException("only an ended exact walk appends another, once");
    }
    tail = later;
    long[] roots = later.rootAddress.drain();
    int[] kinds = later.rootKind.drain();
    for (int r = 0; r < roots.length; r++) {
      root(roots[r], kinds[r], later.rootNames.get(r));
    }
    later.typeNames.forEach(typeNames::putIfAbsent);
    problems.addAll(later.problems);
    later.stopsByKind.forEach((kind, count) -> stopsByKind.merge(kind, count, Integer::sum));
    bytesNotWalked += later.bytesNotWalked;
  }

  /** The builder {@link #append} took, whose objects come after this one's; or null. */
  private HeapSnapshotBuilder tail;

  /** Ends an exact builder's walk: everything has been given. */
  public void walkEnded() {
    flushObjects();
    if (mover != null) {
      Mover m = mover;
      mover = null;
      m.finish();
    }
    state = State.DONE;
  }

  private void heapStats(TraceEvent e) {
    try {
      if (RuntimeEvents.decode(e).orElse(null) instanceof RuntimePayload.GcHeapStats h) {
        // The GC's own sizes, sent just after the walk's GCEnd.
        heapStats =
            new long[] {
              h.generationSize0(),
              h.generationSize1(),
              h.generationSize2(),
              h.generationSize3(),
              h.generationSize4()
            };
      }
    } catch (NetTraceFormatException ex) {
      // The walk is whole without the GC's own count; the report leaves it out.
    }
  }

  /** Whether the walk's GC has ended: nothing more will come for this snapshot. */
  public boolean isComplete() {
    return state == State.DONE;
  }

  /**
   * Whether events of the walk were lost: a gap in a stream's index, or fewer references than the
   * objects claim. A walk with lost events is worth taking again with a bigger buffer.
   */
  public boolean eventsLost() {
    return gaps || claimedEdges != (edgesArrived >= 0 ? edgesArrived : target.size());
  }

  /** How many references the walk sent, once {@link #graph()} has taken them; -1 before. */
  private long edgesArrived = -1;

  private boolean gaps;

  /** Whether the walk's GC has begun. */
  public boolean hasStarted() {
    return state != State.WAITING;
  }

  /** How many objects have arrived so far (for progress). */
  public int objectsSoFar() {
    return address.size();
  }

  /** How many references have arrived so far (for progress). */
  public int referencesSoFar() {
    return target.size();
  }

  /**
   * The snapshot, with what does not add up in its {@link HeapSnapshot#problems()}: the graph
   * ({@link #graph()}) with what came after the walk ({@link #complete}).
   *
   * @return empty if no walk began at all
   */
  public Optional<HeapSnapshot> build() {
    return graph().map(this::complete);
  }

  /**
   * The graph as the walk left it: the references resolved to objects, the types named. Once the
   * walk's GCEnd has come this may run on another thread than {@link #accept}, while the session
   * ends; the GC's sizes and the modules' names are added by {@link #complete}. Once only: the
   * columns are handed over.
   *
   * @return empty if no walk began at all
   */
  public Optional<HeapSnapshot> graph() {
    // Rows whose GCStart never came are no walk that can be told apart from another's.
    if (state == State.WAITING || (gcNumber < 0 && !exactRoots)) {
      return Optional.empty();
    }
    List<String> found = new ArrayList<>(problems);
    if (state != State.DONE) {
      found.add("the end of GC " + gcNumber + " was not seen: the walk may be incomplete");
    }
    HeapSnapshotBuilder later = tail;
    int na = address.size();
    int n = na + (later == null ? 0 : later.address.size());
    int edgesHere = target.size();
    int edgesLater = later == null ? 0 : later.target.size();
    int edges = edgesHere + edgesLater;
    edgesArrived = edges;
    long claimed = claimedEdges + (later == null ? 0 : later.claimedEdges);
    // Object i owns the next edgeCount[i] references: only a whole stream says which are whose.
    boolean trusted =
        claimedEdges == edgesHere && (later == null || later.claimedEdges == edgesLater);
    if (!trusted) {
      found.add(
          "the objects claim "
              + claimed
              + " references but "
              + edges
              + " arrived: events were lost, so which object holds which reference is unknown;"
              + " the references are left out (counts and sizes are exact, retained sizes and"
              + " paths are not)");
    }
    int[] objectFirst = new int[n + 1];
    if (trusted) {
      firstEdge.drainInto(objectFirst, 0);
      if (later != null) {
        later.firstEdge.drainInto(objectFirst, na);
        for (int i = na; i < n; i++) {
          objectFirst[i] += edgesHere;
        }
      }
      objectFirst[n] = edges;
    }
    firstEdge.clear();
    // The objects' columns are copied out on another thread while the references are resolved:
    // for a heap of millions of objects, some 100 MB touched afresh, on the core the resolution
    // would otherwise have alone.
    Beside<ObjectColumns> objects =
        Beside.run(
            "clrscope-graph-objects",
            n >= OBJECTS_BESIDE_FROM && Runtime.getRuntime().availableProcessors() >= 2,
            () -> objects(later, na, n));
    if (later != null) {
      later.firstEdge.clear();
      if (pages == null) {
        pages = later.pages;
      } else if (later.pages != null) {
        pages.append(later.pages, na);
      }
      later.pages = null;
    }
    boolean ascending = pages != null && pages.ascending();
    if (pages != null && pages.ordered()) {
      pages.seal();
    }
    java.util.function.LongToIntFunction index =
        pages != null && pages.ordered()
            ? pages::find
            : new AddressIndex(objects.get().addresses())::find;
    int[] objectTarget = new int[trusted ? edges : 0];
    long outside = trusted ? Resolution.resolve(target, objectTarget, 0, edgesHere, index) : 0;
    if (later != null) {
      if (trusted) {
        outside += Resolution.resolve(later.target, objectTarget, edgesHere, edgesLater, index);
      }
      later.target.clear();
    }
    target.clear();
    pages = null;
    int[] rootObject = findAll(index, rootAddress.drain());
    int[] keys = findAll(index, dependentKey.drain());
    int[] values = findAll(index, dependentValue.drain());
    int[] kinds = rootKind.drain();
    byte[] kind = new byte[kinds.length];
    for (int r = 0; r < kinds.length; r++) {
      kind[r] = (byte) kinds[r];
    }
    ObjectColumns drained = objects.get();
    long[] addresses = drained.addresses();
    int[] types = drained.types();
    int[] sizes = drained.sizes();
    int typeCount = typeIds.size();
    String[] names = new String[typeCount];
    typeModuleIds = new long[typeCount];
    int unnamed = 0;
    int[] perType = new int[typeCount];
    for (int t : types) {
      perType[t]++;
    }
    for (int t = 0; t < typeCount; t++) {
      long id = typeIds.idOf(t);
      String name = typeNames.get(id);
      if (name == null) {
        name = "UNKNOWN 0x" + Long.toHexString(id);
        unnamed += perType[t];
      }
      names[t] = name;
      Long module = typeModules.get(id);
      typeModuleIds[t] = module == null ? 0 : module;
    }
    unnamedObjects = unnamed;
    if (unnamed > 0) {
      found.add(
          unnamed
              + " objects have a type the runtime did not name (another session keeps the Type"
              + " keyword on, so the runtime did not send its names again)");
    }
    HeapSnapshot snapshot =
        new HeapSnapshot(
            gcNumber,
            addresses,
            sizes,
            bigSizes,
            types,
            names,
            new String[typeCount],
            objectFirst,
            objectTarget,
            keys,
            values,
            rootObject,
            kind,
            rootNames,
            outside,
            null,
            new WalkProblems(found, stopsByKind, bytesNotWalked),
            !exactRoots);
    if (ascending) {
      snapshot.addressesInOrder();
    }
    return Optional.of(snapshot);
  }

  /** Below this many objects, {@link #graph()} copies their columns out on its own thread. */
  private static final int OBJECTS_BESIDE_FROM = 1 << 20;

  /** The objects' columns as arrays: each object's address, size and type number. */
  @SuppressWarnings("ArrayRecordComponent") // handed over once, to the snapshot
  private record ObjectColumns(long[] addresses, int[] sizes, int[] types) {}

  /**
   * The objects' columns of this builder and of {@code later} (null: none), {@code na} of this
   * one's then the rest of {@code n}, drained into arrays; the later walk's type numbers renumbered
   * as one walk would have numbered them, in order of first use, and its big sizes taken. Touches
   * only those columns, the type numbers and the big sizes, none of which the resolution of
   * references reads.
   */
  private ObjectColumns objects(HeapSnapshotBuilder later, int na, int n) {
    long[] addresses = new long[n];
    address.drainInto(addresses, 0);
    int[] types = new int[n];
    type.drainInto(types, 0);
    int[] sizes = new int[n];
    size.drainInto(sizes, 0);
    if (later != null) {
      later.address.drainInto(addresses, na);
      later.type.drainInto(types, na);
      int[] renumbered = new int[later.typeIds.size()];
      for (int t = 0; t < renumbered.length; t++) {
        renumbered[t] = typeIds.indexOf(later.typeIds.idOf(t));
      }
      for (int i = na; i < n; i++) {
        types[i] = renumbered[types[i]];
      }
      later.size.drainInto(sizes, na);
      later.bigSizes.forEach((i, big) -> bigSizes.put(i + na, big));
    }
    return new ObjectColumns(addresses, sizes, types);
  }

  /**
   * {@code graph} (from {@link #graph()}) with what came after the walk: the GC's own sizes of its
   * generations and each type's module file (from the rundown). Call once the stream has ended.
   */
  public HeapSnapshot complete(HeapSnapshot graph) {
    String[] modules = new String[typeModuleIds == null ? 0 : typeModuleIds.length];
    for (int t = 0; t < modules.length; t++) {
      modules[t] = modulePaths.get(typeModuleIds[t]);
    }
    String[] names = null;
    if (!unqualified.isEmpty()) {
      names = new String[modules.length];
      for (int t = 0; t < names.length; t++) {
        long id = typeIds.idOf(t);
        if (unqualified.containsKey(id)) {
          names[t] = qualified(id, 0);
        }
      }
    }
    return graph.withEnding(modules, names, heapStats);
  }

  /**
   * The names of nested types, which the runtime's events give without the types they are declared
   * in ({@code Entry} of {@code Dictionary<K,V>}, every class's {@code <>c}): set before the walk,
   * it names them whole from their modules' metadata once the rundown has said which file each
   * module is, as the DAC names them in a core.
   */
  public void nestedTypeNames(NestedTypeNames names) {
    this.definitions = names;
  }

  /** The whole name of a nested type from its module's metadata. */
  @FunctionalInterface
  public interface NestedTypeNames {
    /**
     * The full name of the type {@code token} defines in the module {@code modulePath} (each
     * enclosing type before a {@code +}, arities kept: {@code System.Collections.Generic.
     * Dictionary`2+Entry}) when it is nested; null when it is not, or cannot be read.
     */
    String nestedName(String modulePath, int token);
  }

  private NestedTypeNames definitions;

  /** What the runtime named without a namespace (nested, or in none), by type id. */
  private final Map<Long, BulkTypeValue> unqualified = new HashMap<>();

  /** Ends a name {@link #complete} has yet to make whole: the name shown is what comes before. */
  private static final String UNRESOLVED = "\u0000#";

  /** A name as shown before {@link #complete} made it whole. */
  public static String shown(String name) {
    int cut = name == null ? -1 : name.indexOf(UNRESOLVED);
    return cut < 0 ? name : name.substring(0, cut);
  }

  /** Whether a type named so may be nested: its name has no namespace. */
  private static boolean mayBeNested(String name) {
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c == '.') {
        return false;
      }
      if ((c == '<' && i > 0) || c == '[' || c == '+') {
        return true;
      }
    }
    return true;
  }

  /** Arrays of arrays of nested types are this deep at most. */
  private static final int MAX_ELEMENT_DEPTH = 32;

  /** The whole name of an unqualified type (an array: its element's, whole, then its rank). */
  private String qualified(long id, int depth) {
    BulkTypeValue v = unqualified.get(id);
    String shown = TypeNames.readable(v.name());
    if ((v.flags() & ARRAY_FLAG) != 0) {
      long element = v.typeParameters().isEmpty() ? 0 : v.typeParameters().get(0);
      String elementName =
          unqualified.containsKey(element) && depth < MAX_ELEMENT_DEPTH
              ? qualified(element, depth + 1)
              : shown(typeNames.get(element));
      int rank = shown.lastIndexOf('[');
      return elementName == null || rank < 0 ? shown : elementName + shown.substring(rank);
    }
    String path = modulePaths.get(v.moduleId());
    String definition = path == null ? null : definitions.nestedName(path, (int) v.typeNameId());
    return definition == null
        ? shown
        : TypeNames.instantiate(definition, TypeNames.arguments(shown));
  }

  /** BulkType's flag of an array type, whose first type parameter is its element type. */
  private static final long ARRAY_FLAG = 8;

  /** Each type's module id (0: unknown), by the builder's type index; set by {@link #graph()}. */
  private long[] typeModuleIds;

  private static int[] findAll(java.util.function.LongToIntFunction index, long[] addresses) {
    int[] found = new int[addresses.length];
    for (int i = 0; i < addresses.length; i++) {
      found[i] = index.applyAsInt(addresses[i]);
    }
    return found;
  }

  private long unnamedObjects;

  /**
   * How many objects of the built snapshot have a type the runtime did not name (their rows read
   * {@code UNKNOWN 0x...}).
   */
  public long unnamedObjects() {
    return unnamedObjects;
  }

  /** The rundown's ModuleDCEnd: a module's id and file, sent when the session stops. */
  private static final int MODULE_DC_END = RuntimeEvent.Rundown.MODULE_DC_END;

  private final Map<Long, Long> typeModules = new HashMap<>();

  /** Written by the reading thread while another may build the graph. */
  private final Map<Long, String> modulePaths = new ConcurrentHashMap<>();

  private void module(TraceEvent e) {
    try {
      if (RuntimeEvents.decode(e).orElse(null) instanceof RuntimePayload.ModuleLoad m
          && !m.moduleIlPath().isEmpty()) {
        modulePaths.put(m.moduleId(), m.moduleIlPath());
      }
    } catch (NetTraceFormatException ex) {
      // That module's types go without their file.
    }
  }

  /** GCHeapStats: the generations' sizes at the end of a GC. */
  private static final int GC_HEAP_STATS = RuntimeEvent.Runtime.GC_HEAP_STATS;

  private volatile long[] heapStats;

  /** GCBulkNode and GCBulkEdge: the walk's objects, and their references in the same order. */
  private static final int BULK_NODE = RuntimeEvent.Runtime.GC_BULK_NODE;

  private static final int BULK_EDGE = RuntimeEvent.Runtime.GC_BULK_EDGE;

  private static final int BULK_ROOT_EDGE = RuntimeEvent.Runtime.GC_BULK_ROOT_EDGE;

  /** The root kind given to static fields (the runtime's GCRootKind stops at 5). */
  public static final int STATIC_ROOT = 6;

  /** The root kind of a .gcdump's root node, under which its writer grouped the roots. */
  public static final int FILE_ROOT = 7;

  /**
   * The root kind of an object of a frozen segment (string literals, the runtime's type objects):
   * nothing references it, the runtime keeps it for ever.
   */
  public static final int FROZEN_ROOT = 8;

  /** Static fields' names, by root number. */
  private final Map<Integer, String> rootNames = new HashMap<>();

  private void addRoot(long object, int kind) {
    rootAddress.add(object);
    rootKind.add(kind);
  }

  private void index(int stream, long index) {
    if (index != nextIndex[stream]) {
      gaps = true;
      problems.add(
          STREAM[stream]
              + " events "
              + nextIndex[stream]
              + " to "
              + (index - 1)
              + " were lost (the next one is "
              + index
              + ")");
    }
    nextIndex[stream] = index + 1;
  }

  /**
   * A GCBulkNode event's objects into the columns and the page index, a loop per column with no
   * call per object on the way, which matters most before the JIT has compiled these loops.
   */
  private void addNodes(RuntimeEvents.BulkNodes rows, int pointerSize) {
    addNodes(
        rows.address(), rows.size(), rows.typeId(), rows.edgeCount(), rows.count(), pointerSize);
  }

  private void addNodes(
      long[] objectAddress,
      long[] objectSize,
      long[] typeId,
      long[] edgeCount,
      int n,
      int pointerSize) {
    if (scratch.length < n) {
      scratch = new int[n];
    }
    int[] column = scratch;
    int i0 = address.size();
    address.addAll(objectAddress, n);
    if (pages == null) {
      pages = new PageIndex(pointerSize);
    }
    pages.addAll(objectAddress, n);
    for (int j = 0; j < n; j++) {
      long v = objectSize[j];
      if (v >= 0 && v <= Integer.MAX_VALUE) {
        column[j] = (int) v;
      } else {
        column[j] = -1;
        bigSizes.put(i0 + j, v);
      }
    }
    size.addAll(column, n);
    // Heaps interleave a few types (an object, its string, its array): the ids met last, by a
    // few of their bits, are numbered without the table's lookup.
    long[] seenId = recentIds;
    int[] seenIndex = recentIndexes;
    for (int j = 0; j < n; j++) {
      long id = typeId[j];
      int r = (int) (id ^ id >>> 7) & (RECENT_TYPES - 1);
      int t = seenIndex[r] - 1;
      if (t < 0 || seenId[r] != id) {
        t = typeIds.indexOf(id);
        seenId[r] = id;
        seenIndex[r] = t + 1;
      }
      column[j] = t;
    }
    type.addAll(column, n);
    long claimed = claimedEdges;
    for (int j = 0; j < n; j++) {
      column[j] = (int) Math.min(claimed, Integer.MAX_VALUE);
      claimed += Math.max(0, Math.min(edgeCount[j], Integer.MAX_VALUE));
    }
    firstEdge.addAll(column, n);
    claimedEdges = claimed;
  }

  private static final int RECENT_TYPES = 64;

  /** The type ids {@link #addNodes} met last and their numbers + 1 (0: none yet). */
  private final long[] recentIds = new long[RECENT_TYPES];

  private final int[] recentIndexes = new int[RECENT_TYPES];

  /** One event's worth of a column, reused. */
  private int[] scratch = new int[0];

  /** The runtime's type ids, each numbered in order of first use: an open-addressing table. */
  private static final class TypeIds {
    private long[] ids = new long[64];
    private int[] index = new int[64];
    private long[] byIndex = new long[32];
    private int size;

    /** The number of {@code id}, given it if new. */
    int indexOf(long id) {
      int mask = ids.length - 1;
      int h = (int) (id * 0x9E3779B97F4A7C15L >>> 40) & mask;
      while (index[h] != 0) {
        if (ids[h] == id) {
          return index[h] - 1;
        }
        h = (h + 1) & mask;
      }
      if (size == byIndex.length) {
        byIndex = java.util.Arrays.copyOf(byIndex, size * 2);
      }
      byIndex[size] = id;
      ids[h] = id;
      index[h] = ++size;
      if (size * 2 > ids.length) {
        rehash();
      }
      return size - 1;
    }

    private void rehash() {
      ids = new long[ids.length * 2];
      index = new int[ids.length];
      int mask = ids.length - 1;
      for (int t = 0; t < size; t++) {
        int h = (int) (byIndex[t] * 0x9E3779B97F4A7C15L >>> 40) & mask;
        while (index[h] != 0) {
          h = (h + 1) & mask;
        }
        ids[h] = byIndex[t];
        index[h] = t + 1;
      }
    }

    long idOf(int t) {
      return byIndex[t];
    }

    int size() {
      return size;
    }
  }
}
