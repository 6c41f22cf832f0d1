package dev.clrscope.heapwalk;

import dev.clrscope.nettrace.EventMetadata;
import dev.clrscope.nettrace.Guid;
import dev.clrscope.nettrace.NetTraceReader;
import dev.clrscope.nettrace.NetTraceWriter;
import dev.clrscope.nettrace.StackTrace;
import dev.clrscope.nettrace.TraceEvent;
import dev.clrscope.nettrace.TraceHeader;
import dev.clrscope.nettrace.events.RuntimeEvents;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The heap-walk events the .NET runtime would send for a given graph, written with the nettrace
 * writer and read back: GCStart (depth 2, NonConcurrent, Induced), the type names (BulkType), the
 * roots (GCBulkRootEdge, static fields in GCBulkRootStaticVar), the objects in batches of 2,008
 * (GCBulkNode) and their references in batches of 5,354 (GCBulkEdge) as the runtime's buffers cut
 * them, GCEnd, the GC's sizes (GCHeapStats) and the rundown's modules (ModuleDCEnd).
 */
final class SyntheticWalk {
  /** One object of the walk; {@code references} are addresses. */
  record Node(long address, long size, String type, long[] references) {}

  /** A root: {@code kind} as GCBulkRootEdge has it, or a static field when {@code field} is set. */
  record Root(long address, int kind, String field) {}

  private static final int NODES_PER_EVENT = 2008;
  private static final int EDGES_PER_EVENT = 5354;
  private static final long MODULE = 0x7f00_1234_0000L;

  private static final EventMetadata GC_START = meta(1, RuntimeEvents.RUNTIME_PROVIDER, 1, 2);
  private static final EventMetadata GC_END = meta(2, RuntimeEvents.RUNTIME_PROVIDER, 2, 1);
  private static final EventMetadata HEAP_STATS = meta(3, RuntimeEvents.RUNTIME_PROVIDER, 4, 2);
  private static final EventMetadata BULK_TYPE = meta(4, RuntimeEvents.RUNTIME_PROVIDER, 15, 0);
  private static final EventMetadata ROOTS = meta(5, RuntimeEvents.RUNTIME_PROVIDER, 16, 0);
  private static final EventMetadata NODES = meta(6, RuntimeEvents.RUNTIME_PROVIDER, 18, 0);
  private static final EventMetadata EDGES = meta(7, RuntimeEvents.RUNTIME_PROVIDER, 19, 0);
  private static final EventMetadata STATICS = meta(8, RuntimeEvents.RUNTIME_PROVIDER, 38, 0);
  private static final EventMetadata MODULE_DC_END =
      meta(9, RuntimeEvents.RUNDOWN_PROVIDER, 154, 2);

  private SyntheticWalk() {}

  /** A .gcdump of ../shared/fixtures/gcdump, written by the real dotnet-gcdump. */
  static Path fixture(String name) {
    for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
      Path candidate = p.resolve("../shared/fixtures/gcdump").resolve(name).normalize();
      if (Files.exists(candidate)) {
        return candidate;
      }
      candidate = p.resolve("shared/fixtures/gcdump").resolve(name);
      if (Files.exists(candidate)) {
        return candidate;
      }
    }
    throw new AssertionError("shared/fixtures/gcdump/" + name + " not found (tests must not skip)");
  }

  private static EventMetadata meta(int id, String provider, int eventId, int version) {
    return new EventMetadata(id, provider, eventId, "", 0, version, 4, 0, List.of());
  }

  /** The objects of {@code s} (pseudo-nodes of a .gcdump left out), with their references. */
  static List<Node> nodesOf(HeapSnapshot s) {
    List<Node> nodes = new ArrayList<>();
    for (int i = 0; i < s.objectCount(); i++) {
      if (isObject(s, i)) {
        int[] refs = s.referencesOf(i);
        List<Long> to = new ArrayList<>();
        for (int r : refs) {
          if (isObject(s, r)) {
            to.add(s.addressOf(r));
          }
        }
        nodes.add(
            new Node(
                s.addressOf(i),
                s.sizeOf(i),
                s.typeNameOf(i),
                to.stream().mapToLong(Long::longValue).toArray()));
      }
    }
    return nodes;
  }

  /** Whether object {@code i} of a .gcdump is an object rather than a group of roots. */
  static boolean isObject(HeapSnapshot s, int i) {
    String type = s.typeNameOf(i);
    return !(s.sizeOf(i) == 0 && (type.startsWith("[") || type.equals("UNDEFINED")));
  }

  /**
   * The objects a .gcdump's groups of roots hold, each as a root of its kind ({@code [local vars]}
   * a stack root, {@code [static var T.f]} a static field, handles and the rest handles).
   */
  static List<Root> rootsOf(HeapSnapshot s) {
    List<Root> roots = new ArrayList<>();
    for (int i = 0; i < s.objectCount(); i++) {
      if (isObject(s, i)) {
        continue;
      }
      String group = s.typeNameOf(i);
      for (int r : s.referencesOf(i)) {
        if (!isObject(s, r)) {
          continue;
        }
        if (group.startsWith("[static var ")) {
          String name = group.substring(group.lastIndexOf('.') + 1, group.length() - 1);
          roots.add(new Root(s.addressOf(r), HeapSnapshotBuilder.STATIC_ROOT, name));
        } else {
          roots.add(new Root(s.addressOf(r), group.equals("[local vars]") ? 0 : 2, null));
        }
      }
    }
    return roots;
  }

  /** The walk's events, as {@link NetTraceReader} reads them back. */
  static List<TraceEvent> events(List<Node> nodes, List<Root> roots, long gc) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    TraceHeader header =
        new TraceHeader(
            4, Instant.parse("2026-11-26T00:00:00Z"), 1, 1_000_000_000L, 8, 42, 2, 0, Map.of());
    long[] time = {1_000};
    int[] sequence = {0};
    try (NetTraceWriter w = NetTraceWriter.create(out, header)) {
      java.util.function.BiConsumer<EventMetadata, ByteBuffer> event =
          (m, b) -> {
            byte[] payload = java.util.Arrays.copyOf(b.array(), b.position());
            w.writeEvent(
                m,
                ++sequence[0],
                7,
                7,
                0,
                time[0]++,
                Guid.EMPTY,
                Guid.EMPTY,
                StackTrace.EMPTY,
                false,
                payload);
          };
      ByteBuffer b = buffer(40);
      b.putInt((int) gc).putInt(2).putInt(1).putInt(0).putShort((short) 0).putLong(0);
      event.accept(GC_START, b);
      Map<String, Long> typeIds = new HashMap<>();
      for (Node n : nodes) {
        typeIds.computeIfAbsent(n.type(), t -> 0x7f00_0000_1000L + 16L * typeIds.size());
      }
      for (Map.Entry<String, Long> t : typeIds.entrySet()) {
        b = buffer(64 + 2 * t.getKey().length());
        b.putInt(1).putShort((short) 0);
        b.putLong(t.getValue()).putLong(MODULE).putInt(0).putInt(0).put((byte) 0);
        utf16z(b, t.getKey());
        b.putInt(0);
        event.accept(BULK_TYPE, b);
      }
      List<Root> edges = roots.stream().filter(r -> r.field() == null).toList();
      for (int from = 0, index = 0; from < edges.size(); from += 3059, index++) {
        int count = Math.min(3059, edges.size() - from);
        b = buffer(10 + 21 * count);
        b.putInt(index).putInt(count).putShort((short) 0);
        for (Root r : edges.subList(from, from + count)) {
          b.putLong(r.address()).put((byte) r.kind()).putInt(0).putLong(0);
        }
        event.accept(ROOTS, b);
      }
      for (Root r : roots) {
        if (r.field() != null) {
          b = buffer(64 + 2 * r.field().length());
          b.putInt(1).putLong(1).putShort((short) 0);
          b.putLong(0x5000).putLong(r.address()).putLong(0).putInt(0);
          utf16z(b, r.field());
          event.accept(STATICS, b);
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
        event.accept(NODES, b);
      }
      for (int from = 0, index = 0; from < targets.size(); from += EDGES_PER_EVENT, index++) {
        int count = Math.min(EDGES_PER_EVENT, targets.size() - from);
        b = buffer(10 + 12 * count);
        b.putInt(index).putInt(count).putShort((short) 0);
        for (long t : targets.subList(from, from + count)) {
          b.putLong(t).putInt(0);
        }
        event.accept(EDGES, b);
      }
      b = buffer(16);
      b.putInt((int) gc).putInt(2).putShort((short) 0);
      event.accept(GC_END, b);
      b = buffer(128);
      for (long g = 1; g <= 5; g++) {
        b.putLong(1000 * g).putLong(0);
      }
      event.accept(HEAP_STATS, b);
      b = buffer(128);
      b.putLong(MODULE).putLong(0).putInt(0).putInt(0);
      utf16z(b, "/app/Synthetic.dll");
      utf16z(b, "");
      b.putShort((short) 0);
      event.accept(MODULE_DC_END, b);
    }
    List<TraceEvent> events = new ArrayList<>();
    try (NetTraceReader r = NetTraceReader.open(new ByteArrayInputStream(out.toByteArray()))) {
      TraceEvent e;
      while ((e = r.next()) != null) {
        events.add(e);
      }
    }
    return events;
  }

  /** The module file every synthetic type is in. */
  static final String MODULE_FILE = "/app/Synthetic.dll";

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
