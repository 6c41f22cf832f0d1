package dev.clrscope.heapwalk;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Writes a snapshot as a .gcdump (GCHeapDump version 10, as dotnet-gcdump writes it), which
 * PerfView, Visual Studio, {@code dotnet-gcdump report} and {@link GcDumpReader} open. Node 0 is
 * the UNDEFINED node, nodes 1..n the objects in snapshot order, then {@code [.NET Roots]} and one
 * group node per kind of root ({@code [static vars]}, {@code [local vars]}, {@code [handles]},
 * {@code [finalizer queue]}, {@code [other roots]}: objects nothing references, the runtime's
 * frozen objects). Layout: see {@link GcDumpReader} and the reference's section 4.
 */
public final class GcDumpWriter {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream(1 << 16);

  private GcDumpWriter() {}

  /**
   * The metadata a .gcdump carries beside the graph.
   *
   * @param processName the process's name, or null
   * @param processId its pid, or 0
   * @param timeTicks when it was taken: .NET ticks (100 ns since 0001-01-01 UTC)
   * @param is64Bit the target's pointer size is 8
   */
  public record About(String processName, long processId, long timeTicks, boolean is64Bit) {}

  /** Writes {@code snapshot} to {@code sink}. */
  public static void write(HeapSnapshot snapshot, About about, OutputStream sink)
      throws IOException {
    GcDumpWriter w = new GcDumpWriter();
    w.gcHeapDump(snapshot, about);
    w.out.writeTo(sink);
  }

  private void gcHeapDump(HeapSnapshot s, About about) {
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
    int afterInterop = out.size();
    u8(13);
    string("clrscope");
    u8(6); // end of GCHeapDump
    u8(6); // end of objects
    int table = out.size();
    i32(1);
    i32(afterInterop);
    int trailer = out.size();
    i32(table);
    i32(trailer);
  }

  private void graph(HeapSnapshot s, boolean is64Bit) {
    int n = s.objectCount();
    String[] groupNames = {
      "[local vars]",
      "[finalizer queue]",
      "[handles]",
      "[older generation]",
      "[sized refs]",
      "[overflow]",
      "[static vars]",
      "[other roots]"
    };
    // Group nodes follow the objects and the roots' node; each lists its roots' objects.
    List<List<Integer>> groups = new ArrayList<>();
    for (int g = 0; g < groupNames.length; g++) {
      groups.add(new ArrayList<>());
    }
    Map<Long, Integer> nodeOf = new HashMap<>(n * 2);
    for (int i = 0; i < n; i++) {
      nodeOf.put(s.addressOf(i), i + 1);
    }
    boolean[] referenced = new boolean[n + 1];
    for (int i = 0; i < n; i++) {
      for (long t : s.referencesOf(i)) {
        Integer c = nodeOf.get(t);
        if (c != null) {
          referenced[c] = true;
        }
      }
    }
    for (int r = 0; r < s.rootCount(); r++) {
      Integer c = nodeOf.get(s.rootAddressOf(r));
      if (c != null) {
        int kind = s.rootKindOf(r);
        groups.get(kind >= 0 && kind < groupNames.length - 1 ? kind : groupNames.length - 1).add(c);
        referenced[c] = true;
      }
    }
    for (int i = 1; i <= n; i++) {
      if (!referenced[i]) {
        groups.get(groupNames.length - 1).add(i);
      }
    }
    int rootNode = n + 1;
    int nodeCount = n + 2 + groupNames.length;
    // Types: 0 UNDEFINED, the objects' types, then the pseudo-nodes' names.
    Map<String, Integer> typeIndex = new HashMap<>();
    List<String> typeNames = new ArrayList<>();
    List<Long> typeSizes = new ArrayList<>();
    typeNames.add("UNDEFINED");
    typeSizes.add(0L);
    int[] nodeType = new int[nodeCount];
    long[] nodeSize = new long[nodeCount];
    for (int i = 0; i < n; i++) {
      String name = s.typeNameOf(i);
      Integer t = typeIndex.get(name);
      if (t == null) {
        t = typeNames.size();
        typeIndex.put(name, t);
        typeNames.add(name);
        typeSizes.add(s.sizeOf(i));
      }
      nodeType[i + 1] = t;
      nodeSize[i + 1] = s.sizeOf(i);
    }
    for (int g = -1; g < groupNames.length; g++) {
      String name = g < 0 ? "[.NET Roots]" : groupNames[g];
      nodeType[rootNode + 1 + g] = typeNames.size();
      typeNames.add(name);
      typeSizes.add(0L);
    }
    long total = 0;
    for (long sz : nodeSize) {
      total += sz;
    }
    i64(total);
    i32(rootNode);
    i32(typeNames.size());
    for (int t = 0; t < typeNames.size(); t++) {
      string(typeNames.get(t));
      i32((int) Math.min(Integer.MAX_VALUE, typeSizes.get(t)));
      string(null);
    }
    // The node blob, and each node's offset in it.
    ByteArrayOutputStream blob = new ByteArrayOutputStream(n * 8 + 64);
    int[] offset = new int[nodeCount];
    cint(blob, 0);
    cint(blob, 0);
    for (int i = 0; i < n; i++) {
      int node = i + 1;
      offset[node] = blob.size();
      long[] refs = s.referencesOf(i);
      List<Integer> children = new ArrayList<>(refs.length);
      for (long t : refs) {
        Integer c = nodeOf.get(t);
        if (c != null) {
          children.add(c);
        }
      }
      record(blob, node, nodeType[node], nodeSize[node], typeSizes.get(nodeType[node]), children);
    }
    List<Integer> rootChildren = new ArrayList<>();
    for (int g = 0; g < groupNames.length; g++) {
      rootChildren.add(rootNode + 1 + g);
    }
    offset[rootNode] = blob.size();
    record(blob, rootNode, nodeType[rootNode], 0, 0, rootChildren);
    for (int g = 0; g < groupNames.length; g++) {
      int node = rootNode + 1 + g;
      offset[node] = blob.size();
      record(blob, node, nodeType[node], 0, 0, groups.get(g));
    }
    i32(nodeCount);
    for (int o : offset) {
      i32(o);
    }
    i32(blob.size());
    out.writeBytes(blob.toByteArray());
    i32(nodeCount);
    for (int node = 0; node < nodeCount; node++) {
      i64(node >= 1 && node <= n ? s.addressOf(node - 1) : 0);
    }
    u8(8);
    u8(is64Bit ? 1 : 0);
  }

  private static void record(
      ByteArrayOutputStream blob,
      int node,
      int type,
      long size,
      long typeSize,
      List<Integer> children) {
    boolean hasSize = size != typeSize;
    cint(blob, type << 1 | (hasSize ? 1 : 0));
    if (hasSize) {
      cint(blob, (int) Math.min(Integer.MAX_VALUE, size));
    }
    cint(blob, children.size());
    for (int c : children) {
      cint(blob, c - node);
    }
  }

  /**
   * A compressed signed integer: the fewest 7-bit groups (1 to 5) that hold it, most significant
   * first, bit 7 set on every byte but the last.
   */
  static void cint(ByteArrayOutputStream b, int v) {
    int n = 5;
    for (int k = 1; k <= 4; k++) {
      int bits = 7 * k;
      if (v >= -(1 << (bits - 1)) && v < (1 << (bits - 1))) {
        n = k;
        break;
      }
    }
    for (int k = n - 1; k >= 0; k--) {
      int group = (int) (((long) v >> (7 * k)) & 0x7F);
      b.write(k > 0 ? group | 0x80 : group);
    }
  }

  private void typeObject(int version, int minReader, String name) {
    u8(4);
    u8(1);
    i32(version);
    i32(minReader);
    string(name);
    u8(6);
  }

  private void u8(int v) {
    out.write(v);
  }

  private void i32(int v) {
    out.write(v);
    out.write(v >>> 8);
    out.write(v >>> 16);
    out.write(v >>> 24);
  }

  private void i64(long v) {
    i32((int) v);
    i32((int) (v >>> 32));
  }

  private void f32(float f) {
    i32(Float.floatToIntBits(f));
  }

  /** FastSerialization's string: i32 UTF-16 units (-1 for null), each as 1 to 3 bytes. */
  private void string(String s) {
    if (s == null) {
      i32(-1);
      return;
    }
    i32(s.length());
    for (int k = 0; k < s.length(); k++) {
      char c = s.charAt(k);
      if (c <= 0x7F) {
        out.write(c);
      } else if (c <= 0x7FF) {
        out.write(0xC0 | c >> 6);
        out.write(0x80 | c & 0x3F);
      } else {
        out.write(0xE0 | c >> 12);
        out.write(0x80 | c >> 6 & 0x3F);
        out.write(0x80 | c & 0x3F);
      }
    }
  }
}
