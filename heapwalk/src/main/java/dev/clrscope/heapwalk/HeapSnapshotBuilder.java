package dev.clrscope.heapwalk;

import dev.clrscope.nettrace.NetTraceFormatException;
import dev.clrscope.nettrace.TraceEvent;
import dev.clrscope.nettrace.events.EventFields;
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
import java.util.Arrays;
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

  private long[] address = new long[1 << 12];
  private long[] size = new long[1 << 12];
  private long[] typeId = new long[1 << 12];
  private long[] edgeCount = new long[1 << 12];
  private int nodes;
  private long[] target = new long[1 << 12];
  private int edges;
  private long[] rootAddress = new long[1 << 10];
  private byte[] rootKind = new byte[1 << 10];
  private int roots;

  /** Takes one event of the session; anything but the runtime's heap events is ignored. */
  public void accept(TraceEvent e) {
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
          if (edges == target.length) {
            target = Arrays.copyOf(target, edges * 2);
          }
          target[edges++] = v.value();
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

  /** Whether the walk's GC has begun. */
  public boolean hasStarted() {
    return state != State.WAITING;
  }

  /** How many objects have arrived so far (for progress). */
  public int objectsSoFar() {
    return nodes;
  }

  /** How many references have arrived so far (for progress). */
  public int referencesSoFar() {
    return edges;
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
    long[] first = new long[nodes + 1];
    long sum = 0;
    for (int i = 0; i < nodes; i++) {
      first[i] = sum;
      sum += edgeCount[i];
    }
    first[nodes] = Math.min(sum, edges);
    if (sum != edges) {
      found.add(
          "the objects claim "
              + sum
              + " references but "
              + edges
              + " arrived: events were lost, references cannot be trusted");
      for (int i = 0; i < nodes; i++) {
        first[i] = Math.min(first[i], edges);
      }
    }
    int unnamed = 0;
    for (int i = 0; i < nodes; i++) {
      if (!typeNames.containsKey(typeId[i])) {
        unnamed++;
      }
    }
    if (unnamed > 0) {
      found.add(
          unnamed
              + " objects have a type the runtime did not name (another session keeps the Type"
              + " keyword on, so the runtime did not send its names again)");
    }
    return Optional.of(
        new HeapSnapshot(
            gcNumber,
            Arrays.copyOf(address, nodes),
            Arrays.copyOf(size, nodes),
            Arrays.copyOf(typeId, nodes),
            first,
            Arrays.copyOf(target, edges),
            Arrays.copyOf(rootAddress, roots),
            Arrays.copyOf(rootKind, roots),
            Arrays.copyOf(dependentKey, dependents),
            Arrays.copyOf(dependentValue, dependents),
            rootNames,
            heapStats,
            typeNames,
            found));
  }

  /** GCHeapStats: the generations' sizes at the end of a GC. */
  private static final int GC_HEAP_STATS = 4;

  private long[] heapStats;

  /** GCBulkRootStaticVar: static fields' objects, roots of their own kind. */
  private static final int BULK_ROOT_STATIC_VAR = 38;

  /** GCBulkRootConditionalWeakTableElementEdge: a dependent handle's key keeps its value alive. */
  private static final int BULK_ROOT_CWT = 17;

  /** The root kind given to static fields (the runtime's GCRootKind stops at 5). */
  public static final int STATIC_ROOT = 6;

  /** The root kind of a .gcdump's root node, under which its writer grouped the roots. */
  public static final int FILE_ROOT = 7;

  private long[] dependentKey = new long[16];
  private long[] dependentValue = new long[16];
  private int dependents;

  private void staticRoots(TraceEvent e) {
    for (Map<?, ?> v : values(e)) {
      if (v.get("ObjectID") instanceof Number object) {
        addRoot(object.longValue(), STATIC_ROOT);
        if (v.get("FieldName") instanceof String field && !field.isEmpty()) {
          rootNames.put(roots - 1, field);
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
        if (dependents == dependentKey.length) {
          dependentKey = Arrays.copyOf(dependentKey, dependents * 2);
          dependentValue = Arrays.copyOf(dependentValue, dependents * 2);
        }
        dependentKey[dependents] = key.longValue();
        dependentValue[dependents++] = value.longValue();
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
    if (roots == rootAddress.length) {
      rootAddress = Arrays.copyOf(rootAddress, roots * 2);
      rootKind = Arrays.copyOf(rootKind, roots * 2);
    }
    rootAddress[roots] = object;
    rootKind[roots++] = (byte) kind;
  }

  private void index(int stream, long index) {
    if (index != nextIndex[stream]) {
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
    if (nodes == address.length) {
      int n = nodes * 2;
      address = Arrays.copyOf(address, n);
      size = Arrays.copyOf(size, n);
      typeId = Arrays.copyOf(typeId, n);
      edgeCount = Arrays.copyOf(edgeCount, n);
    }
    address[nodes] = v.address();
    size[nodes] = v.size();
    typeId[nodes] = v.typeId();
    edgeCount[nodes++] = v.edgeCount();
  }
}
