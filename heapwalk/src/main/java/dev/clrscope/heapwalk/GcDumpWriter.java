package dev.clrscope.heapwalk;

import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a snapshot as a .gcdump (GCHeapDump version 10, as dotnet-gcdump writes it), which
 * PerfView, Visual Studio, {@code dotnet-gcdump report} and {@link GcDumpReader} open. Node 0 is
 * the UNDEFINED node, nodes 1..n the objects in snapshot order, then the roots as dotnet-gcdump
 * groups them:
 *
 * <pre>
 *  [.NET Roots]
 *    [local vars]            stack roots
 *    [static vars]
 *      [static var T.f]      one node per static field (T the type of the object it holds)
 *    [other roots]
 *      [finalizer Handles]   the finalizer queue
 *      [strong Handles]      handles
 *      [other Handles]       the runtime's other root kinds
 *      [frozen objects]      objects nothing references (string literals, type objects)
 * </pre>
 *
 * A dependent handle's value is written as a child of its key (what keeps it alive). The file is
 * streamed in two passes over the graph (the nodes' offsets come before the nodes), so writing it
 * takes no memory beyond an int per node. Layout: see {@link GcDumpReader} and the reference's
 * section 4.
 */
public final class GcDumpWriter {
  private final OutputStream out;

  /** What was handed to {@code out} before the buffer's contents. */
  private long flushed;

  /**
   * The bytes not yet handed over: written here directly (a heap's tens of millions of small values
   * through an OutputStream's synchronized calls took most of the time).
   */
  private final byte[] buf = new byte[1 << 16];

  private int pos;

  private GcDumpWriter(OutputStream out) {
    this.out = out;
  }

  /**
   * The metadata a .gcdump carries beside the graph.
   *
   * @param processName the process's name, or null
   * @param processId its pid, or 0
   * @param timeTicks when it was taken: .NET ticks (100 ns since 0001-01-01 UTC)
   * @param is64Bit the target's pointer size is 8
   */
  public record About(String processName, long processId, long timeTicks, boolean is64Bit) {}

  /** Writes {@code snapshot} to {@code sink} (buffered here; {@code sink} is not closed). */
  public static void write(HeapSnapshot snapshot, About about, OutputStream sink)
      throws IOException {
    GcDumpWriter w = new GcDumpWriter(sink);
    w.gcHeapDump(snapshot, about);
    w.flush();
    sink.flush();
  }

  private void flush() throws IOException {
    out.write(buf, 0, pos);
    flushed += pos;
    pos = 0;
  }

  /** Makes room for {@code n} more bytes (at most the buffer's size). */
  private void room(int n) throws IOException {
    if (pos + n > buf.length) {
      flush();
    }
  }

  private void gcHeapDump(HeapSnapshot s, About about) throws IOException {
    string("!FastSerialization.1");
    u8(4);
    typeObject(10, 8, "GCHeapDump");
    u8(4);
    typeObject(1, 0, "Graphs.MemoryGraph");
    graph(s, about.is64Bit());
    u8(6); // end of MemoryGraph
    u8(about.is64Bit() ? 1 : 0);
    f32(1.0f); // AverageCountMultiplier
    f32(1.0f); // AverageSizeMultiplier
    u8(1); // JSHeapInfo: null
    u8(1); // DotNetHeapInfo: null
    string(null); // CollectionLog
    i64(about.timeTicks());
    string(null); // MachineName
    string(about.processName());
    i32((int) about.processId());
    i64(0); // TotalProcessCommit
    i64(0); // TotalProcessWorkingSet
    i32(0); // CountMultipliersByType
    // InteropInfo: a skip region whose forward reference 0 is the offset just after its null.
    u8(12);
    i32(0);
    u8(1);
    int afterInterop = position();
    u8(13);
    string("clrscope");
    u8(6); // end of GCHeapDump
    u8(6); // end of objects
    int table = position();
    i32(1);
    i32(afterInterop);
    int trailer = position();
    i32(table);
    i32(trailer);
  }

  private int position() {
    long written = flushed + pos;
    if (written > Integer.MAX_VALUE) {
      throw new IllegalStateException("a .gcdump cannot be larger than 2 GB");
    }
    return (int) written;
  }

  /** The pseudo-nodes after the objects: their names and children. */
  private static final class Roots {
    final List<String> names = new ArrayList<>();
    final List<IntColumn> children = new ArrayList<>();

    /** A new pseudo-node; its node number is {@code first + the returned index}. */
    int add(String name) {
      names.add(name);
      children.add(new IntColumn());
      return names.size() - 1;
    }
  }

  private void graph(HeapSnapshot s, boolean is64Bit) throws IOException {
    int n = s.objectCount();
    int base = n + 1; // node of pseudo-node 0
    Roots roots = new Roots();
    int netRoots = roots.add("[.NET Roots]");
    int locals = roots.add("[local vars]");
    int statics = roots.add("[static vars]");
    int other = roots.add("[other roots]");
    int finalizer = roots.add("[finalizer Handles]");
    int strong = roots.add("[strong Handles]");
    int otherHandles = roots.add("[other Handles]");
    int frozen = roots.add("[frozen objects]");
    for (int g : new int[] {locals, statics, other}) {
      roots.children.get(netRoots).add(base + g);
    }
    for (int g : new int[] {finalizer, strong, otherHandles, frozen}) {
      roots.children.get(other).add(base + g);
    }
    Map<String, Integer> staticNodes = new HashMap<>();
    int[] rootReferences = s.rootReferences();
    for (int j = 0; j < rootReferences.length; j++) {
      int object = rootReferences[j];
      int r = s.rootOfReference(j);
      int group;
      if (r < 0) {
        group = frozen;
      } else {
        int kind = s.rootKindOf(r);
        String field = s.rootNameOf(r);
        if (kind == HeapSnapshotBuilder.STATIC_ROOT) {
          String name = "[static var " + s.typeNameOf(object) + "." + field + "]";
          Integer known = staticNodes.get(name);
          if (known == null) {
            known = roots.add(name);
            staticNodes.put(name, known);
            roots.children.get(statics).add(base + known);
          }
          group = known;
        } else {
          group =
              switch (kind) {
                case 0 -> locals;
                case 1 -> finalizer;
                case 2 -> strong;
                case HeapSnapshotBuilder.FILE_ROOT -> netRoots;
                default -> otherHandles;
              };
        }
      }
      roots.children.get(group).add(object + 1);
    }
    int rootNode = base + netRoots;
    int nodeCount = base + roots.names.size();
    // Types: 0 UNDEFINED, the snapshot's types (t + 1), then the pseudo-nodes' names. A type's
    // size is its first object's: objects of that size need not say it.
    String[] names = s.typeNames();
    int types = 1 + names.length + roots.names.size();
    long[] typeSize = new long[types];
    Arrays.fill(typeSize, -1);
    long total = 0;
    for (int i = 0; i < n; i++) {
      int t = s.typeOf(i) + 1;
      long size = s.sizeOf(i);
      if (typeSize[t] < 0) {
        typeSize[t] = size;
      }
      total += size;
    }
    i64(total);
    i32(rootNode);
    i32(types);
    for (int t = 0; t < types; t++) {
      string(
          t == 0
              ? "UNDEFINED"
              : t <= names.length ? names[t - 1] : roots.names.get(t - 1 - names.length));
      i32((int) Math.min(Integer.MAX_VALUE, Math.max(typeSize[t], 0)));
      string(t >= 1 && t <= names.length ? s.typeModule(t - 1) : null);
    }
    // The node blob: first each node's offset (its encoding measured), then the nodes.
    i32(nodeCount);
    long blobLength = 2; // node 0: type 0, no children
    i32(0);
    for (int node = 1; node < nodeCount; node++) {
      if (blobLength > Integer.MAX_VALUE) {
        throw new IllegalStateException("a .gcdump cannot be larger than 2 GB");
      }
      i32((int) blobLength);
      blobLength += length(s, node, n, base, names.length, roots, typeSize);
    }
    if (blobLength > Integer.MAX_VALUE) {
      throw new IllegalStateException("a .gcdump cannot be larger than 2 GB");
    }
    i32((int) blobLength);
    u8(0);
    u8(0);
    for (int node = 1; node < nodeCount; node++) {
      encode(s, node, n, base, names.length, roots, typeSize);
    }
    i32(nodeCount);
    for (int node = 0; node < nodeCount; node++) {
      i64(node >= 1 && node <= n ? s.addressOf(node - 1) : 0);
    }
    u8(8);
    u8(is64Bit ? 1 : 0);
  }

  /** The length of node {@code node}'s record, as {@link #encode} writes it. */
  private static int length(
      HeapSnapshot s, int node, int n, int base, int objectTypes, Roots roots, long[] typeSize) {
    if (node <= n) {
      int i = node - 1;
      int type = s.typeOf(i) + 1;
      long size = s.sizeOf(i);
      boolean hasSize = size != typeSize[type];
      int from = s.referencesStart(i);
      int to = s.referencesStart(i + 1);
      int length =
          cintLength(type << 1 | (hasSize ? 1 : 0))
              + (hasSize ? cintLength((int) Math.min(Integer.MAX_VALUE, size)) : 0)
              + cintLength(to - from);
      for (int k = from; k < to; k++) {
        length += cintLength(s.referenceAt(k) + 1 - node);
      }
      return length;
    }
    int g = node - base;
    IntColumn children = roots.children.get(g);
    int length = cintLength((1 + objectTypes + g) << 1) + cintLength(children.size());
    for (int k = 0; k < children.size(); k++) {
      length += cintLength(children.get(k) - node);
    }
    return length;
  }

  /** Node {@code node}'s record: CInt type and size flag, [CInt size], CInt children, deltas. */
  private void encode(
      HeapSnapshot s, int node, int n, int base, int objectTypes, Roots roots, long[] typeSize)
      throws IOException {
    room(15);
    if (node <= n) {
      int i = node - 1;
      int type = s.typeOf(i) + 1;
      long size = s.sizeOf(i);
      boolean hasSize = size != typeSize[type];
      pos = cint(buf, pos, type << 1 | (hasSize ? 1 : 0));
      if (hasSize) {
        pos = cint(buf, pos, (int) Math.min(Integer.MAX_VALUE, size));
      }
      int from = s.referencesStart(i);
      int to = s.referencesStart(i + 1);
      pos = cint(buf, pos, to - from);
      for (int k = from; k < to; k++) {
        room(5);
        pos = cint(buf, pos, s.referenceAt(k) + 1 - node);
      }
    } else {
      int g = node - base;
      pos = cint(buf, pos, (1 + objectTypes + g) << 1);
      IntColumn children = roots.children.get(g);
      pos = cint(buf, pos, children.size());
      for (int k = 0; k < children.size(); k++) {
        room(5);
        pos = cint(buf, pos, children.get(k) - node);
      }
    }
  }

  /** Bytes of one value, for tests of {@link #cint(Record, int)}. */
  static final class Record {
    byte[] bytes = new byte[8];
    int length;
  }

  /** {@link #cint(byte[], int, int)} into {@code b}. */
  static void cint(Record b, int v) {
    b.length = cint(b.bytes, b.length, v);
  }

  /** How many bytes {@link #cint(byte[], int, int)} takes for {@code v}. */
  static int cintLength(int v) {
    if (v >= -(1 << 6) && v < 1 << 6) {
      return 1;
    }
    if (v >= -(1 << 13) && v < 1 << 13) {
      return 2;
    }
    if (v >= -(1 << 20) && v < 1 << 20) {
      return 3;
    }
    if (v >= -(1 << 27) && v < 1 << 27) {
      return 4;
    }
    return 5;
  }

  /**
   * A compressed signed integer at {@code at}: the fewest 7-bit groups (1 to 5) that hold it, most
   * significant first, bit 7 set on every byte but the last; returns where it ends.
   */
  static int cint(byte[] b, int at, int v) {
    int n = cintLength(v);
    for (int k = n - 1; k >= 0; k--) {
      int group = (int) (((long) v >> (7 * k)) & 0x7F);
      b[at++] = (byte) (k > 0 ? group | 0x80 : group);
    }
    return at;
  }

  private void typeObject(int version, int minReader, String name) throws IOException {
    u8(4);
    u8(1);
    i32(version);
    i32(minReader);
    string(name);
    u8(6);
  }

  private void u8(int v) throws IOException {
    room(1);
    buf[pos++] = (byte) v;
  }

  private void i32(int v) throws IOException {
    room(4);
    buf[pos] = (byte) v;
    buf[pos + 1] = (byte) (v >>> 8);
    buf[pos + 2] = (byte) (v >>> 16);
    buf[pos + 3] = (byte) (v >>> 24);
    pos += 4;
  }

  private void i64(long v) throws IOException {
    i32((int) v);
    i32((int) (v >>> 32));
  }

  private void f32(float f) throws IOException {
    i32(Float.floatToIntBits(f));
  }

  /** FastSerialization's string: i32 UTF-16 units (-1 for null), each as 1 to 3 bytes. */
  private void string(String s) throws IOException {
    if (s == null) {
      i32(-1);
      return;
    }
    i32(s.length());
    for (int k = 0; k < s.length(); k++) {
      char c = s.charAt(k);
      if (c <= 0x7F) {
        u8(c);
      } else if (c <= 0x7FF) {
        u8(0xC0 | c >> 6);
        u8(0x80 | c & 0x3F);
      } else {
        u8(0xE0 | c >> 12);
        u8(0x80 | c >> 6 & 0x3F);
        u8(0x80 | c & 0x3F);
      }
    }
  }
}
