package dev.clrscope.heapwalk;

import dev.clrscope.nettrace.DecodedPayload;
import dev.clrscope.nettrace.NetTraceFormatException;
import dev.clrscope.nettrace.TraceEvent;
import dev.clrscope.nettrace.events.EventFields;
import dev.clrscope.nettrace.events.RuntimeEvent;
import dev.clrscope.nettrace.events.RuntimeEvents;
import dev.clrscope.nettrace.events.RuntimePayload;
import dev.clrscope.nettrace.events.RuntimePayload.BulkNode;
import dev.clrscope.nettrace.events.RuntimePayload.BulkRootEdge;
import dev.clrscope.nettrace.events.RuntimePayload.BulkType;
import dev.clrscope.nettrace.events.RuntimePayload.BulkTypeValue;
import dev.clrscope.nettrace.events.RuntimePayload.GcBulkEdge;
import dev.clrscope.nettrace.events.RuntimePayload.GcBulkNode;
import dev.clrscope.nettrace.events.RuntimePayload.GcBulkRootEdge;
import dev.clrscope.nettrace.events.RuntimePayload.GcEnd;
import dev.clrscope.nettrace.events.RuntimePayload.GcStart;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Turns the runtime's heap-walk events into a {@link HeapSnapshot}. The runtime walks the heap only
 * during a GC that a session forced (keyword GCHeapCollect): the first blocking gen2 GC induced
 * after the session started (GCStart depth 2, type NonConcurrent, reason Induced) is the walk, its
 * GCEnd the end. In between come objects (GCBulkNode), their references in the same order
 * (GCBulkEdge: object i owns the next EdgeCount references), roots (GCBulkRootEdge; static fields
 * in GCBulkRootStaticVar), dependent handles (a key keeps its value alive) and type names
 * (BulkType). Each of the three streams numbers its events from 0: a gap is an event lost, said in
 * {@link HeapSnapshot#problems()}, never silently turned into a wrong graph.
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
  private final long[] nextIndex = new long[3];
  private final List<String> problems = new ArrayList<>();
  private final Map<Long, String> typeNames = new HashMap<>();

  /** The runtime's type ids in the order objects first named them: an object's type is an index. */
  private final Map<Long, Integer> typeIndex = new HashMap<>();

  private final List<Long> typeIds = new ArrayList<>();

  private final LongColumn address = new LongColumn();
  private final IntColumn size = new IntColumn();
  private final Map<Integer, Long> bigSizes = new HashMap<>();
  private final IntColumn type = new IntColumn();
  private final IntColumn edgeCount = new IntColumn();
  private long claimedEdges;
  private final LongColumn target = new LongColumn();
  private final LongColumn rootAddress = new LongColumn();
  private final IntColumn rootKind = new IntColumn();
  private final LongColumn dependentKey = new LongColumn();
  private final LongColumn dependentValue = new LongColumn();

  /** Takes one event of the session; anything but the runtime's heap events is ignored. */
  public void accept(TraceEvent e) {
    if (RuntimeEvents.RUNDOWN_PROVIDER.equals(e.providerName())) {
      if (e.eventId() == MODULE_DC_END) {
        module(e);
      }
      return;
    }
    if (!RuntimeEvents.RUNTIME_PROVIDER.equals(e.providerName())
        || (state == State.DONE && (heapStats != null || e.eventId() != GC_HEAP_STATS))) {
      return;
    }
    Optional<RuntimePayload> decoded;
    try {
      decoded = RuntimeEvents.decode(e);
    } catch (NetTraceFormatException ex) {
      if (state == State.WALKING) {
        problems.add("an undecodable event " + e.eventId() + ": " + ex.getMessage());
      }
      return;
    }
    if (decoded.isEmpty()) {
      if (state == State.WALKING && e.eventId() == BULK_ROOT_STATIC_VAR) {
        staticRoots(e);
      } else if (state == State.WALKING && e.eventId() == BULK_ROOT_CWT) {
        dependentHandles(e);
      }
      return;
    }
    RuntimePayload p = decoded.get();
    if (p instanceof RuntimePayload.GcHeapStats h) {
      // The GC's own sizes, sent just after the walk's GCEnd.
      if (state == State.DONE) {
        heapStats =
            new long[] {
              h.generationSize0(),
              h.generationSize1(),
              h.generationSize2(),
              h.generationSize3(),
              h.generationSize4()
            };
      }
      return;
    }
    if (p instanceof BulkType t) {
      // Type rows may come before the walk (statics) or during it: keep them all.
      for (BulkTypeValue v : t.values()) {
        typeNames.put(v.typeId(), TypeNames.readable(v.name()));
        typeModules.put(v.typeId(), v.moduleId());
      }
    } else if (p instanceof GcStart s) {
      if (state == State.WAITING && s.depth() == 2 && s.type() == 0 && s.reason() == 1) {
        state = State.WALKING;
        gcNumber = s.count();
      }
    } else if (p instanceof GcEnd end) {
      if (state == State.WALKING && end.count() == gcNumber) {
        state = State.DONE;
      }
    } else if (state == State.WALKING) {
      if (p instanceof GcBulkNode n) {
        index(NODES, n.index());
        for (BulkNode v : n.values()) {
          addNode(v);
        }
      } else if (p instanceof GcBulkEdge b) {
        index(EDGES, b.index());
        for (RuntimePayload.BulkEdge v : b.values()) {
          target.add(v.value());
        }
      } else if (p instanceof GcBulkRootEdge r) {
        index(ROOTS, r.index());
        for (BulkRootEdge v : r.values()) {
          addRoot(v.rootedNodeAddress(), v.gcRootKind());
        }
      }
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
    return gaps || claimedEdges != target.size();
  }

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
   * The snapshot, with what does not add up in its {@link HeapSnapshot#problems()}.
   *
   * @return empty if no walk began at all
   */
  public Optional<HeapSnapshot> build() {
    if (state == State.WAITING) {
      return Optional.empty();
    }
    List<String> found = new ArrayList<>(problems);
    if (state != State.DONE) {
      found.add("the end of GC " + gcNumber + " was not seen: the walk may be incomplete");
    }
    int n = address.size();
    int edges = target.size();
    // Object i owns the next edgeCount[i] references: only a whole stream says which are whose.
    boolean trusted = claimedEdges == edges;
    if (!trusted) {
      found.add(
          "the objects claim "
              + claimedEdges
              + " references but "
              + edges
              + " arrived: events were lost, so which object holds which reference is unknown;"
              + " the references are left out (counts and sizes are exact, retained sizes and"
              + " paths are not)");
    }
    int[] objectFirst = new int[n + 1];
    {
      long sum = 0;
      for (int i = 0; i < n; i++) {
        objectFirst[i] = (int) Math.min(sum, trusted ? edges : 0);
        sum += edgeCount.get(i);
      }
      objectFirst[n] = trusted ? edges : 0;
    }
    edgeCount.drain();
    long[] addresses = address.drain();
    AddressIndex index = new AddressIndex(addresses);
    int[] objectTarget = new int[trusted ? edges : 0];
    long outside = 0;
    for (int k = 0; k < objectTarget.length; k++) {
      long a = target.get(k);
      target.releaseThrough(k);
      objectTarget[k] = index.find(a);
      if (objectTarget[k] < 0 && a != 0) {
        outside++;
      }
    }
    target.clear();
    int[] rootObject = index.findAll(rootAddress.drain());
    int[] keys = index.findAll(dependentKey.drain());
    int[] values = index.findAll(dependentValue.drain());
    int[] kinds = rootKind.drain();
    byte[] kind = new byte[kinds.length];
    for (int r = 0; r < kinds.length; r++) {
      kind[r] = (byte) kinds[r];
    }
    String[] names = new String[typeIds.size()];
    String[] modules = new String[typeIds.size()];
    for (int t = 0; t < modules.length; t++) {
      Long module = typeModules.get(typeIds.get(t));
      modules[t] = module == null ? null : modulePaths.get(module);
    }
    int unnamed = 0;
    int[] types = type.drain();
    int[] perType = new int[names.length];
    for (int t : types) {
      perType[t]++;
    }
    for (int t = 0; t < names.length; t++) {
      String name = typeNames.get(typeIds.get(t));
      if (name == null) {
        name = "UNKNOWN 0x" + Long.toHexString(typeIds.get(t));
        unnamed += perType[t];
      }
      names[t] = name;
    }
    unnamedObjects = unnamed;
    if (unnamed > 0) {
      found.add(
          unnamed
              + " objects have a type the runtime did not name (another session keeps the Type"
              + " keyword on, so the runtime did not send its names again)");
    }
    return Optional.of(
        new HeapSnapshot(
            gcNumber,
            addresses,
            size.drain(),
            bigSizes,
            types,
            names,
            modules,
            objectFirst,
            objectTarget,
            keys,
            values,
            rootObject,
            kind,
            rootNames,
            outside,
            heapStats,
            found));
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
  private final Map<Long, String> modulePaths = new HashMap<>();

  private void module(TraceEvent e) {
    DecodedPayload fields = EventFields.of(e);
    if (fields.get("ModuleID") instanceof Number id
        && fields.get("ModuleILPath") instanceof String path
        && !path.isEmpty()) {
      modulePaths.put(id.longValue(), path);
    }
  }

  /** GCHeapStats: the generations' sizes at the end of a GC. */
  private static final int GC_HEAP_STATS = RuntimeEvent.Runtime.GC_HEAP_STATS;

  private long[] heapStats;

  /** GCBulkRootStaticVar: static fields' objects, roots of their own kind. */
  private static final int BULK_ROOT_STATIC_VAR = RuntimeEvent.Runtime.GC_BULK_ROOT_STATIC_VAR;

  /** GCBulkRootConditionalWeakTableElementEdge: a dependent handle's key keeps its value alive. */
  private static final int BULK_ROOT_CWT =
      RuntimeEvent.Runtime.GC_BULK_ROOT_CONDITIONAL_WEAK_TABLE_ELEMENT_EDGE;

  /** The root kind given to static fields (the runtime's GCRootKind stops at 5). */
  public static final int STATIC_ROOT = 6;

  /** The root kind of a .gcdump's root node, under which its writer grouped the roots. */
  public static final int FILE_ROOT = 7;

  private void staticRoots(TraceEvent e) {
    for (Map<?, ?> v : values(e)) {
      if (v.get("ObjectID") instanceof Number object) {
        addRoot(object.longValue(), STATIC_ROOT);
        if (v.get("FieldName") instanceof String field && !field.isEmpty()) {
          rootNames.put(rootAddress.size() - 1, field);
        }
      }
    }
  }

  /** Static fields' names, by root number. */
  private final Map<Integer, String> rootNames = new HashMap<>();

  private void dependentHandles(TraceEvent e) {
    for (Map<?, ?> v : values(e)) {
      if (v.get("GCKeyNodeID") instanceof Number key
          && v.get("GCValueNodeID") instanceof Number value) {
        dependentKey.add(key.longValue());
        dependentValue.add(value.longValue());
      }
    }
  }

  /** The {@code Values} rows of a bulk event decoded from the runtime's manifest. */
  private List<Map<?, ?>> values(TraceEvent e) {
    Object values = EventFields.of(e).get("Values");
    List<Map<?, ?>> rows = new ArrayList<>();
    if (values instanceof List<?> list) {
      for (Object o : list) {
        if (o instanceof Map<?, ?> m) {
          rows.add(m);
        }
      }
    } else {
      problems.add("a " + e.eventId() + " event could not be decoded");
    }
    return rows;
  }

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

  private void addNode(BulkNode v) {
    int i = address.size();
    address.add(v.address());
    if (v.size() >= 0 && v.size() <= Integer.MAX_VALUE) {
      size.add((int) v.size());
    } else {
      size.add(-1);
      bigSizes.put(i, v.size());
    }
    Integer t = typeIndex.get(v.typeId());
    if (t == null) {
      t = typeIds.size();
      typeIndex.put(v.typeId(), t);
      typeIds.add(v.typeId());
    }
    type.add(t);
    long count = Math.max(0, Math.min(v.edgeCount(), Integer.MAX_VALUE));
    edgeCount.add((int) count);
    claimedEdges += count;
  }
}
