package dev.clrscope.heapwalk;

import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.OutputStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.function.BooleanSupplier;

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
 * streamed in two passes over the graph (the nodes' offsets come before the nodes), on two threads
 * for a big graph (one measures the records for their offsets while the other encodes them), so
 * writing it takes no memory beyond the encoded records waiting for their offsets, 32 MB at most.
 * Layout: see {@link GcDumpReader} and the reference's section 4.
 *
 * <p>Only the type table, near the start, needs the types' module names, which a live walk learns
 * last (the rundown at the session's end): {@link #prepare} encodes what follows the table (the
 * nodes' offsets, the nodes, their addresses) into memory while the session ends, up to a budget,
 * and {@link Prepared#write} then writes the table and carries on from there.
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
    prepare(snapshot, 0, () -> false).write(snapshot, about, sink);
  }

  /**
   * Starts writing {@code graph} before its types' modules are known: encodes what follows the type
   * table into memory while {@code waiting} says so, at most about {@code budget} bytes.
   */
  public static Prepared prepare(HeapSnapshot graph, long budget, BooleanSupplier waiting) {
    Layout layout = new Layout(graph);
    Body body = new Body(layout);
    Spool spool = new Spool();
    GcDumpWriter w = new GcDumpWriter(spool);
    try {
      while (waiting.getAsBoolean() && w.flushed + w.pos < budget && body.produce(w, 4096)) {
        // A batch of nodes at a time, so that a session that ends is noticed soon.
      }
      w.flush();
    } catch (IOException e) {
      throw new java.io.UncheckedIOException("a .gcdump in memory cannot fail", e);
    }
    return new Prepared(graph, layout, body, spool);
  }

  /** A .gcdump begun by {@link #prepare}: the rest is written by {@link #write}. */
  public static final class Prepared {
    private final HeapSnapshot graph;
    private final Layout layout;
    private final Body body;
    private final Spool spool;
    private boolean written;

    private Prepared(HeapSnapshot graph, Layout layout, Body body, Spool spool) {
      this.graph = graph;
      this.layout = layout;
      this.body = body;
      this.spool = spool;
    }

    /** Whether {@code snapshot} is the graph this was prepared for (with its ending or not). */
    public boolean isFor(HeapSnapshot snapshot) {
      return !written && snapshot.sameGraph(graph);
    }

    /** How many bytes were encoded ahead. */
    public long encodedAhead() {
      return spool.size;
    }

    /**
     * Writes the whole file to {@code sink} (buffered here; {@code sink} is not closed): {@code
     * snapshot} is the prepared graph with its modules ({@link HeapSnapshot#objectCount()} and the
     * rest unchanged). Once only.
     */
    public void write(HeapSnapshot snapshot, About about, OutputStream sink) throws IOException {
      if (!snapshot.sameGraph(graph)) {
        throw new IllegalArgumentException("not the graph that was prepared");
      }
      if (written) {
        throw new IllegalStateException("written already");
      }
      written = true;
      GcDumpWriter w = new GcDumpWriter(sink);
      w.string("!FastSerialization.1");
      w.u8(4);
      w.typeObject(10, 8, "GCHeapDump");
      w.u8(4);
      w.typeObject(1, 0, "Graphs.MemoryGraph");
      w.types(snapshot, layout);
      w.flush();
      for (byte[] chunk : spool.chunks) {
        sink.write(chunk);
        w.flushed += chunk.length;
      }
      spool.chunks.clear();
      body.encodeNodesAhead();
      try {
        while (body.produce(w, Integer.MAX_VALUE)) {
          // To the end.
        }
      } finally {
        body.cancelAhead();
      }
      w.u8(8);
      w.u8(about.is64Bit() ? 1 : 0);
      w.rest(about);
      w.flush();
      sink.flush();
    }
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

  /** What follows the MemoryGraph: the GCHeapDump's own fields and the file's trailer. */
  private void rest(About about) throws IOException {
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

  /** Bytes in memory, in chunks (a copy that grows never copies what it has). */
  private static final class Spool extends OutputStream {
    final List<byte[]> chunks = new ArrayList<>();
    long size;

    @Override
    public void write(int b) {
      write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) {
      byte[] chunk = Arrays.copyOfRange(b, off, off + len);
      chunks.add(chunk);
      size += len;
    }
  }

  /**
   * The blob of node records encoded on a thread of its own, handed over in 64 KB pieces through a
   * bounded queue (at most {@link #PIECES} pieces wait: a writer that falls behind holds 32 MB at
   * most, not the whole blob).
   */
  private static final class NodesAhead {
    /** From this many nodes on, a second thread pays. */
    static final int FROM = 1 << 18;

    private static final int PIECES = 512;

    /** The end of the pieces (or the encoder's failure, in {@link #failure}). */
    private static final byte[] END = new byte[0];

    private final BlockingQueue<byte[]> pieces = new ArrayBlockingQueue<>(PIECES);
    private final Thread thread;
    private volatile Throwable failure;

    private NodesAhead(Layout l) {
      thread = new Thread(() -> encodeAll(l), "clrscope-gcdump-nodes");
      thread.setDaemon(true);
    }

    static NodesAhead start(Layout l) {
      NodesAhead a = new NodesAhead(l);
      a.thread.start();
      return a;
    }

    private void encodeAll(Layout l) {
      GcDumpWriter enc =
          new GcDumpWriter(
              new OutputStream() {
                @Override
                public void write(int b) throws IOException {
                  write(new byte[] {(byte) b}, 0, 1);
                }

                @Override
                public void write(byte[] b, int off, int len) throws IOException {
                  try {
                    pieces.put(Arrays.copyOfRange(b, off, off + len));
                  } catch (InterruptedException e) {
                    throw new InterruptedIOException("the .gcdump's writing was given up");
                  }
                }
              });
      try {
        for (int node = 1; node < l.nodeCount; node++) {
          enc.encode(l, node);
        }
        enc.flush();
      } catch (IOException | RuntimeException | Error e) {
        failure = e;
      } finally {
        try {
          pieces.put(END);
        } catch (InterruptedException e) {
          // Given up: nobody takes the pieces.
        }
      }
    }

    /** Writes every piece to {@code w}'s sink as it comes, through the end. */
    void drainTo(GcDumpWriter w) throws IOException {
      w.flush();
      try {
        for (byte[] piece; (piece = pieces.take()) != END; ) {
          w.out.write(piece);
          w.flushed += piece.length;
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException("interrupted while writing the .gcdump");
      }
      Throwable f = failure;
      if (f instanceof IOException e) {
        throw e;
      }
      if (f instanceof RuntimeException e) {
        throw e;
      }
      if (f instanceof Error e) {
        throw e;
      }
    }

    /** Ends the encoding thread, whatever it was doing. */
    void cancel() {
      thread.interrupt();
      pieces.clear();
    }
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

  /** The nodes of a graph as the file numbers them, and its types' sizes. */
  private static final class Layout {
    final HeapSnapshot s;
    final int n;
    final int base;
    final Roots roots = new Roots();
    final int rootNode;
    final int nodeCount;
    final int objectTypes;
    final long[] typeSize;
    final long total;

    Layout(HeapSnapshot s) {
      this.s = s;
      n = s.objectCount();
      base = n + 1; // node of pseudo-node 0
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
      // Only an exact snapshot has garbage; asking another would build its dominator tree for
      // nothing.
      if (s.hasExactRoots() && s.unreachableCount() > 0) {
        // Garbage of an exact snapshot (a core): in the file under a group that says what it is,
        // so that a reader counts the heap's objects and sees these apart.
        int unreachable = roots.add("[unreachable objects]");
        roots.children.get(netRoots).add(base + unreachable);
        for (int i = 0; i < n; i++) {
          if (!s.isReachable(i)) {
            roots.children.get(unreachable).add(i + 1);
          }
        }
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
            // An exact snapshot names the field with its declaring type; an event walk, alone.
            String name =
                "[static var "
                    + (field != null && field.indexOf('.') >= 0
                        ? field
                        : HeapSnapshotBuilder.shown(s.typeNameOf(object)) + "." + field)
                    + "]";
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
                  case HeapSnapshotBuilder.FROZEN_ROOT -> frozen;
                  default -> otherHandles;
                };
          }
        }
        roots.children.get(group).add(object + 1);
      }
      rootNode = base + netRoots;
      nodeCount = base + roots.names.size();
      // Types: 0 UNDEFINED, the snapshot's types (t + 1), then the pseudo-nodes' names. A type's
      // size is its first object's: objects of that size need not say it.
      objectTypes = s.typeNames().length;
      typeSize = new long[1 + objectTypes + roots.names.size()];
      Arrays.fill(typeSize, -1);
      long sum = 0;
      for (int i = 0; i < n; i++) {
        int t = s.typeOf(i) + 1;
        long size = s.sizeOf(i);
        if (typeSize[t] < 0) {
          typeSize[t] = size;
        }
        sum += size;
      }
      total = sum;
    }
  }

  /** The MemoryGraph's fields up to its nodes: total size, root node, the type table. */
  private void types(HeapSnapshot s, Layout layout) throws IOException {
    String[] names = s.typeNames();
    int types = layout.typeSize.length;
    i64(layout.total);
    i32(layout.rootNode);
    i32(types);
    for (int t = 0; t < types; t++) {
      string(
          t == 0
              ? "UNDEFINED"
              : t <= names.length ? names[t - 1] : layout.roots.names.get(t - 1 - names.length));
      i32((int) Math.min(Integer.MAX_VALUE, Math.max(layout.typeSize[t], 0)));
      string(t >= 1 && t <= names.length ? s.typeModule(t - 1) : null);
    }
  }

  /**
   * What follows the type table, written a batch of nodes at a time from wherever it stopped: the
   * node count and each node's offset (its encoding measured), the blob of nodes, then the count
   * and each node's address.
   */
  private static final class Body {
    private static final int OFFSETS = 0;
    private static final int NODES = 1;
    private static final int ADDRESSES = 2;
    private static final int DONE = 3;

    private final Layout l;
    private int phase = OFFSETS;

    /** The next node of the phase; -1 before the phase's opening fields. */
    private int node = -1;

    private long blobLength;

    Body(Layout l) {
      this.l = l;
    }

    /** The nodes' records, encoded on another thread while this one writes their offsets. */
    private NodesAhead ahead;

    /**
     * Starts encoding the nodes' records on a second thread, if the nodes are not begun and there
     * are enough of them: their offsets (a pass that measures every record) and the records
     * themselves (a pass that encodes them) then take the machine's two cores at once.
     */
    void encodeNodesAhead() {
      if (phase == OFFSETS
          && l.nodeCount >= NodesAhead.FROM
          && Runtime.getRuntime().availableProcessors() >= 2) {
        ahead = NodesAhead.start(l);
      }
    }

    /** Stops the second thread if the file was not finished (the sink failed). */
    void cancelAhead() {
      if (ahead != null) {
        ahead.cancel();
        ahead = null;
      }
    }

    /** Writes up to {@code batch} nodes' worth to {@code w}; false once everything is written. */
    boolean produce(GcDumpWriter w, int batch) throws IOException {
      int count = l.nodeCount;
      int until = (int) Math.min(count, (long) Math.max(node, 0) + batch);
      switch (phase) {
        case OFFSETS -> {
          if (node < 0) {
            w.i32(count);
            blobLength = 2; // node 0: type 0, no children
            w.i32(0);
            node = 1;
          }
          for (; node < until; node++) {
            if (blobLength > Integer.MAX_VALUE) {
              throw new IllegalStateException("a .gcdump cannot be larger than 2 GB");
            }
            w.i32((int) blobLength);
            blobLength += length(node);
          }
          if (node == count) {
            if (blobLength > Integer.MAX_VALUE) {
              throw new IllegalStateException("a .gcdump cannot be larger than 2 GB");
            }
            w.i32((int) blobLength);
            w.u8(0);
            w.u8(0);
            phase = NODES;
            node = 1;
          }
        }
        case NODES -> {
          if (ahead != null) {
            ahead.drainTo(w);
            ahead = null;
            node = count;
          }
          for (; node < until; node++) {
            w.encode(l, node);
          }
          if (node == count) {
            phase = ADDRESSES;
            node = -1;
          }
        }
        case ADDRESSES -> {
          if (node < 0) {
            w.i32(count);
            node = 0;
          }
          for (; node < until; node++) {
            w.room(8);
            LE_LONG.set(w.buf, w.pos, node >= 1 && node <= l.n ? l.s.addressOf(node - 1) : 0);
            w.pos += 8;
          }
          if (node == count) {
            phase = DONE;
          }
        }
        default -> {
          return false;
        }
      }
      return phase != DONE;
    }

    /** The length of node {@code node}'s record, as {@link #encode} writes it. */
    private int length(int node) {
      HeapSnapshot s = l.s;
      if (node <= l.n) {
        int i = node - 1;
        int type = s.typeOf(i) + 1;
        long size = s.sizeOf(i);
        boolean hasSize = size != l.typeSize[type];
        int from = s.referencesStart(i);
        int to = s.referencesStart(i + 1);
        int length =
            cintLength(type << 1 | (hasSize ? 1 : 0))
                + (hasSize ? cintLength((int) Math.min(Integer.MAX_VALUE, size)) : 0)
                + cintLength(to - from);
        int[] target = s.targets();
        for (int k = from; k < to; k++) {
          int delta = target[k] + 1 - node;
          // Most references are near their object: one or two bytes, without the call.
          length +=
              delta >= -(1 << 6) && delta < 1 << 6
                  ? 1
                  : delta >= -(1 << 13) && delta < 1 << 13 ? 2 : cintLength(delta);
        }
        return length;
      }
      int g = node - l.base;
      IntColumn children = l.roots.children.get(g);
      int length = cintLength((1 + l.objectTypes + g) << 1) + cintLength(children.size());
      for (int k = 0; k < children.size(); k++) {
        length += cintLength(children.get(k) - node);
      }
      return length;
    }
  }

  /** Node {@code node}'s record: CInt type and size flag, [CInt size], CInt children, deltas. */
  private void encode(Layout l, int node) throws IOException {
    HeapSnapshot s = l.s;
    room(15);
    if (node <= l.n) {
      int i = node - 1;
      int type = s.typeOf(i) + 1;
      long size = s.sizeOf(i);
      boolean hasSize = size != l.typeSize[type];
      pos = cint(buf, pos, type << 1 | (hasSize ? 1 : 0));
      if (hasSize) {
        pos = cint(buf, pos, (int) Math.min(Integer.MAX_VALUE, size));
      }
      int from = s.referencesStart(i);
      int to = s.referencesStart(i + 1);
      pos = cint(buf, pos, to - from);
      int[] target = s.targets();
      byte[] b = buf;
      for (int k = from; k < to; ) {
        // As many references as surely fit, then room again: not a check per reference.
        int until = Math.min(to, k + (b.length - pos) / 5);
        if (until == k) {
          flush();
          continue;
        }
        int p = pos;
        for (; k < until; k++) {
          int delta = target[k] + 1 - node;
          if (delta >= -(1 << 6) && delta < 1 << 6) {
            b[p++] = (byte) (delta & 0x7F);
          } else if (delta >= -(1 << 13) && delta < 1 << 13) {
            b[p] = (byte) (delta >> 7 & 0x7F | 0x80);
            b[p + 1] = (byte) (delta & 0x7F);
            p += 2;
          } else {
            p = cint(b, p, delta);
          }
        }
        pos = p;
      }
    } else {
      int g = node - l.base;
      pos = cint(buf, pos, (1 + l.objectTypes + g) << 1);
      IntColumn children = l.roots.children.get(g);
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
    LE_INT.set(buf, pos, v);
    pos += 4;
  }

  /**
   * Little-endian views of the buffer: single stores under the quick compiler, which {@code
   * dump-heap collect} runs with (bytes shifted out one by one took a tenth of its time).
   */
  private static final VarHandle LE_INT =
      MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

  private static final VarHandle LE_LONG =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

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
