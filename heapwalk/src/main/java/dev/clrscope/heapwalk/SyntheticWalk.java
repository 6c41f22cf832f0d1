package dev.clrscope.heapwalk;

import dev.clrscope.nettrace.EventMetadata;
import dev.clrscope.nettrace.Guid;
import dev.clrscope.nettrace.NetTraceWriter;
import dev.clrscope.nettrace.StackTrace;
import dev.clrscope.nettrace.TraceHeader;
import dev.clrscope.nettrace.events.RuntimeEvent.Rundown;
import dev.clrscope.nettrace.events.RuntimeEvent.Runtime;
import dev.clrscope.nettrace.events.RuntimeEvents;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The heap-walk events the .NET runtime sends for a given graph, written with the nettrace writer:
 * GCStart (depth 2, NonConcurrent, Induced), the type names (BulkType), the roots (GCBulkRootEdge,
 * static fields in GCBulkRootStaticVar), the objects in batches of 2,008 (GCBulkNode) and their
 * references in batches of 5,354 (GCBulkEdge) as the runtime's buffers cut them, GCEnd and the GC's
 * sizes (GCHeapStats); then, as a session's end sends it, the rundown's module (ModuleDCEnd). For
 * the build's training run (so that the AppCDS archive holds what a heap snapshot loads) and for
 * tests.
 */
public final class SyntheticWalk {
  /** One object of the walk; {@code references} are addresses. */
  public record Node(long address, long size, String type, long[] references) {}

  /** A root: {@code kind} as GCBulkRootEdge has it, or a static field when {@code field} is set. */
  public record Root(long address, int kind, String field) {}

  /** The module file every type of the walk is in. */
  public static final String MODULE_FILE = "/app/Synthetic.dll";

  private static final int NODES_PER_EVENT = 2008;
  private static final int EDGES_PER_EVENT = 5354;
  private static final int ROOTS_PER_EVENT = 3059;
  private static final long MODULE = 0x7f00_1234_0000L;

  private static final EventMetadata GC_START =
      meta(1, RuntimeEvents.RUNTIME_PROVIDER, Runtime.GC_START, 2);
  private static final EventMetadata GC_END =
      meta(2, RuntimeEvents.RUNTIME_PROVIDER, Runtime.GC_END, 1);
  private static final EventMetadata HEAP_STATS =
      meta(3, RuntimeEvents.RUNTIME_PROVIDER, Runtime.GC_HEAP_STATS, 2);
  private static final EventMetadata BULK_TYPE =
      meta(4, RuntimeEvents.RUNTIME_PROVIDER, Runtime.BULK_TYPE, 0);
  private static final EventMetadata ROOTS =
      meta(5, RuntimeEvents.RUNTIME_PROVIDER, Runtime.GC_BULK_ROOT_EDGE, 0);
  private static final EventMetadata NODES =
      meta(6, RuntimeEvents.RUNTIME_PROVIDER, Runtime.GC_BULK_NODE, 0);
  private static final EventMetadata EDGES =
      meta(7, RuntimeEvents.RUNTIME_PROVIDER, Runtime.GC_BULK_EDGE, 0);
  private static final EventMetadata STATICS =
      meta(8, RuntimeEvents.RUNTIME_PROVIDER, Runtime.GC_BULK_ROOT_STATIC_VAR, 0);
  private static final EventMetadata MODULE_DC_END =
      meta(9, RuntimeEvents.RUNDOWN_PROVIDER, Rundown.MODULE_DC_END, 2);

  private final NetTraceWriter w;
  private long time = 1_000;
  private int sequence;

  private SyntheticWalk(NetTraceWriter w) {
    this.w = w;
  }

  private static EventMetadata meta(int id, String provider, int eventId, int version) {
    return new EventMetadata(id, provider, eventId, "", 0, version, 4, 0, List.of());
  }

  /** The stream header of a 64-bit process's walk. */
  public static TraceHeader header() {
    return new TraceHeader(
        4, Instant.parse("2026-11-26T00:00:00Z"), 1, 1_000_000_000L, 8, 42, 2, 0, Map.of());
  }

  /**
   * A small heap in address order: a list, its array of {@code n} items, each item holding one
   * shared string.
   */
  public static List<Node> listOf(int n) {
    long base = 0x7f00_0000_0000L;
    long array = base + 64;
    long first = base + 64 + (24 + 8L * n + 7) / 8 * 8;
    long label = first + 24L * n;
    long[] items = new long[n];
    for (int i = 0; i < n; i++) {
      items[i] = first + 24L * i;
    }
    List<Node> nodes = new ArrayList<>();
    nodes.add(new Node(base, 32, "System.Collections.Generic.List`1[Item]", new long[] {array}));
    nodes.add(new Node(array, 24 + 8L * n, "Item[]", items));
    for (long item : items) {
      nodes.add(new Node(item, 24, "Item", new long[] {label}));
    }
    nodes.add(new Node(label, 34, "System.String", new long[0]));
    nodes.sort(Comparator.comparingLong(Node::address));
    return nodes;
  }

  /** Writes the walk of GC {@code gc} to {@code w}: from its GCStart to the GC's own sizes. */
  public static void walk(NetTraceWriter w, List<Node> nodes, List<Root> roots, long gc) {
    new SyntheticWalk(w).walk(nodes, roots, gc);
  }

  /** Writes what a session's end sends: the rundown's module of the walk's types. */
  public static void rundown(NetTraceWriter w) {
    ByteBuffer b = buffer(128);
    b.putLong(MODULE).putLong(0).putInt(0).putInt(0);
    utf16z(b, MODULE_FILE);
    utf16z(b, "");
    b.putShort((short) 0);
    new SyntheticWalk(w).event(MODULE_DC_END, b);
  }

  private void event(EventMetadata m, ByteBuffer b) {
    byte[] payload = Arrays.copyOf(b.array(), b.position());
    w.writeEvent(
        m, ++sequence, 7, 7, 0, time++, Guid.EMPTY, Guid.EMPTY, StackTrace.EMPTY, false, payload);
  }

  private void walk(List<Node> nodes, List<Root> roots, long gc) {
    ByteBuffer b = buffer(40);
    b.putInt((int) gc).putInt(2).putInt(1).putInt(0).putShort((short) 0).putLong(0);
    event(GC_START, b);
    Map<String, Long> typeIds = new LinkedHashMap<>();
    for (Node n : nodes) {
      if (!typeIds.containsKey(n.type())) {
        typeIds.put(n.type(), 0x7f00_0000_1000L + 16L * typeIds.size());
      }
    }
    for (Map.Entry<String, Long> t : typeIds.entrySet()) {
      b = buffer(64 + 2 * t.getKey().length());
      b.putInt(1).putShort((short) 0);
      b.putLong(t.getValue()).putLong(MODULE).putInt(0).putInt(0).put((byte) 0);
      utf16z(b, t.getKey());
      b.putInt(0);
      event(BULK_TYPE, b);
    }
    List<Root> edges = roots.stream().filter(r -> r.field() == null).toList();
    for (int from = 0, index = 0; from < edges.size(); from += ROOTS_PER_EVENT, index++) {
      int count = Math.min(ROOTS_PER_EVENT, edges.size() - from);
      b = buffer(10 + 21 * count);
      b.putInt(index).putInt(count).putShort((short) 0);
      for (Root r : edges.subList(from, from + count)) {
        b.putLong(r.address()).put((byte) r.kind()).putInt(0).putLong(0);
      }
      event(ROOTS, b);
    }
    for (Root r : roots) {
      if (r.field() != null) {
        b = buffer(64 + 2 * r.field().length());
        b.putInt(1).putLong(1).putShort((short) 0);
        b.putLong(0x5000).putLong(r.address()).putLong(0).putInt(0);
        utf16z(b, r.field());
        event(STATICS, b);
      }
    }
    List<Long> targets = new ArrayList<>();
    for (int from = 0, index = 0; from < nodes.size(); from += NODES_PER_EVENT, index++) {
      int count = Math.min(NODES_PER_EVENT, nodes.size() - from);
      b = buffer(10 + 32 * count);
      b.putInt(index).putInt(count).putShort((short) 0);
      for (Node n : nodes.subList(from, from + count)) {
        b.putLong(n.address()).putLong(n.size()).putLong(typeIds.get(n.type()));
        b.putLong(n.references().length);
        for (long t : n.references()) {
          targets.add(t);
        }
      }
      event(NODES, b);
    }
    for (int from = 0, index = 0; from < targets.size(); from += EDGES_PER_EVENT, index++) {
      int count = Math.min(EDGES_PER_EVENT, targets.size() - from);
      b = buffer(10 + 12 * count);
      b.putInt(index).putInt(count).putShort((short) 0);
      for (long t : targets.subList(from, from + count)) {
        b.putLong(t).putInt(0);
      }
      event(EDGES, b);
    }
    b = buffer(16);
    b.putInt((int) gc).putInt(2).putShort((short) 0);
    event(GC_END, b);
    // GenerationSize0 to 3: 1,000 to 4,000 bytes, each with its promoted size 0.
    b = buffer(128);
    for (long g = 1; g <= 5; g++) {
      b.putLong(1000 * g).putLong(0);
    }
    event(HEAP_STATS, b);
  }

  private static ByteBuffer buffer(int size) {
    return ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
  }

  private static void utf16z(ByteBuffer b, String s) {
    for (int i = 0; i < s.length(); i++) {
      b.putChar(s.charAt(i));
    }
    b.putChar('\0');
  }
}
