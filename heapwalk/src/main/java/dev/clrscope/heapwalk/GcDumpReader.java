package dev.clrscope.heapwalk;

import dev.clrscope.nettrace.InputFile;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * Reads a .gcdump file (PerfView's GCHeapDump in FastSerialization, as dotnet-gcdump and PerfView
 * write it, versions 9 and 10) into a {@link HeapSnapshot}: every node with its type and size, its
 * children, and the root node. The graph's pseudo-nodes ({@code [.NET Roots]}, {@code [static var
 * …]}, {@code [local vars]}) are nodes of size 0; the size suffixes dotnet-gcdump gives big
 * objects' types ({@code Widget[] (Bytes > 100K)}) are taken off, so a type's objects are counted
 * together.
 *
 * <pre>
 *  i32 20, "!FastSerialization.1"
 *  04  04 01 i32 version i32 minReader string "GCHeapDump" 06
 *      04  04 01 i32 version i32 minReader string "Graphs.MemoryGraph" 06
 *          i64 totalSize  i32 rootIndex
 *          i32 typeCount  { string name  i32 size  string module }
 *          i32 nodeCount  { i32 blobOffset }
 *          i32 blobLength  blob: per node CInt(type &lt;&lt; 1 | hasSize) [CInt size] CInt childCount
 *                                { CInt (child - node) }
 *          i32 addressCount { i64 address }  ...
 * </pre>
 *
 * Every count and length is checked against the bytes left: a truncated or corrupt file is a {@link
 * GcDumpFormatException} naming the offset.
 */
public final class GcDumpReader {
  private static final String MAGIC = "!FastSerialization.1";
  private static final int BEGIN_OBJECT = 4;
  private static final int NULL_REFERENCE = 1;
  private static final int END_OBJECT = 6;

  private byte[] b;
  private int at;

  /** Each type's module file, or null. */
  private String[] typeModule;

  /** Each node's offset in the blob (0: referenced, never defined). */
  private int[] offset;

  private GcDumpReader(byte[] bytes) {
    this.b = bytes;
  }

  /** Reads {@code file}, a regular file ({@link InputFile}) that fits one array. */
  public static HeapSnapshot read(Path file) throws IOException {
    return parse(InputFile.readAllBytes(file, Integer.MAX_VALUE - 8));
  }

  /** Reads a whole .gcdump held in memory. */
  public static HeapSnapshot parse(byte[] bytes) {
    return new GcDumpReader(bytes).graph();
  }

  private HeapSnapshot graph() {
    String magic = string("the header");
    if (!MAGIC.equals(magic)) {
      throw new GcDumpFormatException(0, "not a .gcdump file (no FastSerialization header)");
    }
    requireTrailer();
    tag(BEGIN_OBJECT, "the GCHeapDump object");
    int version = typeHeader("GCHeapDump");
    if (version < 9 || version > 10) {
      throw new GcDumpFormatException(
          at, "GCHeapDump version " + version + " is not supported (9 and 10 are)");
    }
    tag(BEGIN_OBJECT, "the MemoryGraph object");
    int graphMinReader = typeHeaderMinReader("Graphs.MemoryGraph");
    i64("total size");
    int rootIndex = i32("root index");
    int typeCount = count("types", 9);
    String[] typeName = new String[typeCount];
    int[] typeSize = new int[typeCount];
    typeModule = new String[typeCount];
    for (int t = 0; t < typeCount; t++) {
      // In clrscope's spelling whichever tool wrote the file (dotnet-gcdump runs generic
      // arguments together).
      typeName[t] = TypeNames.canonical(withoutSizeSuffix(string("type " + t + " name")));
      typeSize[t] = i32("type " + t + " size");
      typeModule[t] = string("type " + t + " module");
    }
    int nodeCount = count("nodes", 4);
    if (rootIndex < 0 || rootIndex >= nodeCount) {
      throw new GcDumpFormatException(at, "root index " + rootIndex + " is not a node");
    }
    offset = new int[nodeCount];
    for (int i = 0; i < nodeCount; i++) {
      offset[i] = i32("node offset");
    }
    int blobLength = count("blob bytes", 1);
    int blobStart = at;
    at += blobLength;
    if (blobLength < 2) {
      throw new GcDumpFormatException(blobStart, "the node blob has no UNDEFINED node");
    }
    if (graphMinReader > 0) {
      throw new GcDumpFormatException(
          at,
          "this .gcdump has deferred types (MemoryGraph reader version "
              + graphMinReader
              + "), which clrscope does not read yet");
    }
    // The objects' addresses follow (0 for pseudo-nodes), when the writer kept them.
    int addressCount = count("addresses", 8);
    long[] nodeAddress = new long[addressCount == nodeCount ? nodeCount : 0];
    for (int i = 0; i < addressCount; i++) {
      long a = i64("address");
      if (i < nodeAddress.length) {
        nodeAddress[i] = a;
      }
    }
    return nodes(rootIndex, typeName, typeSize, blobStart, blobLength, nodeAddress);
  }

  /**
   * The defined nodes (a node only referenced is left out, with its references), each at its
   * address in the file or, where the file has none, at {@code index + 1}.
   */
  private HeapSnapshot nodes(
      int rootIndex,
      String[] typeName,
      int[] typeSize,
      int blobStart,
      int blobLength,
      long[] nodeAddress) {
    int n = offset.length;
    int[] defined = new int[n];
    int count = 0;
    for (int i = 0; i < n; i++) {
      defined[i] = offset[i] == 0 && i != 0 ? -1 : count++;
    }
    long[] address = new long[count];
    int[] size = new int[count];
    int[] type = new int[count];
    int[] objectFirst = new int[count + 1];
    // Two passes over the blob: the first counts the references, so that the second fills an
    // array of exactly that size (the biggest of a snapshot) rather than growing one.
    int[] objectTarget = null;
    for (int pass = 0; pass < 2; pass++) {
      int references = 0;
      for (int i = 0; i < n; i++) {
        int d = defined[i];
        if (d < 0) {
          continue; // referenced, never defined
        }
        objectFirst[d] = references;
        references += node(i, blobStart, blobLength, typeName, typeSize, objectTarget, references);
        if (objectTarget != null) {
          address[d] = i < nodeAddress.length && nodeAddress[i] != 0 ? nodeAddress[i] : i + 1L;
          size[d] = nodeSize;
          type[d] = nodeType;
        }
      }
      objectFirst[count] = references;
      objectTarget = pass == 0 ? new int[references] : objectTarget;
    }
    for (int k = 0; k < objectTarget.length; k++) {
      objectTarget[k] = defined[objectTarget[k]];
    }
    // The file's bytes and offsets are no longer needed: let them go before the graph is linked.
    b = null;
    offset = null;
    return new HeapSnapshot(
        -1,
        address,
        size,
        Map.of(),
        type,
        typeName,
        typeModule,
        objectFirst,
        objectTarget,
        new int[0],
        new int[0],
        new int[] {defined[rootIndex]},
        new byte[] {(byte) HeapSnapshotBuilder.FILE_ROOT},
        Map.of(0, "[.NET Roots]"),
        0,
        null,
        WalkProblems.NONE,
        true);
  }

  private int nodeSize;
  private int nodeType;

  /**
   * Decodes node {@code i}: its type and size into {@link #nodeType} and {@link #nodeSize}, and
   * (when {@code into} is not null) its children's node numbers into {@code into} from {@code at}.
   *
   * @return how many children it has
   */
  private int node(
      int i,
      int blobStart,
      int blobLength,
      String[] typeName,
      int[] typeSize,
      int[] into,
      int from) {
    int end = blobStart + blobLength;
    if (offset[i] < 0 || offset[i] >= blobLength) {
      throw new GcDumpFormatException(blobStart, "node " + i + " lies outside the blob");
    }
    at = blobStart + offset[i];
    int typeAndFlag = cint(end, "node " + i + " type");
    int t = typeAndFlag >>> 1;
    if (t >= typeName.length) {
      throw new GcDumpFormatException(at, "node " + i + " has type " + t + ", not a type");
    }
    int s = (typeAndFlag & 1) != 0 ? cint(end, "node " + i + " size") : typeSize[t];
    int children = cint(end, "node " + i + " children");
    if (children < 0 || children > end - at) {
      throw new GcDumpFormatException(at, "node " + i + " claims " + children + " children");
    }
    nodeSize = Math.max(s, 0);
    nodeType = t;
    int n = offset.length;
    for (int c = 0; c < children; c++) {
      long child = (long) i + cint(end, "node " + i + " child");
      if (child < 0 || child >= n) {
        throw new GcDumpFormatException(at, "node " + i + " has a child " + child + ", not a node");
      }
      if (into != null) {
        into[from + c] = (int) child;
      }
    }
    return children;
  }

  /**
   * A whole file ends with its trailer:
   *
   * <pre>
   *  F: i32 count, count x i32 forward reference     (the forward-reference table)
   *  T: i32 F                                       T = length - 8
   *     i32 T                                       the file's last four bytes
   * </pre>
   *
   * A file cut short has none; a cut that happens to end in numbers that point back into the file
   * would need them to point exactly so.
   */
  private void requireTrailer() {
    int length = b.length;
    if (length >= 32) {
      int t = le32(length - 4);
      if (t == length - 8) {
        int f = le32(t);
        if (f > 24 && f < t) {
          long count = le32(f) & 0xFFFFFFFFL;
          if (f + 4 + 4 * count == t) {
            return;
          }
        }
      }
    }
    throw new GcDumpFormatException(
        length, "the file ends without its trailer: it was cut short (or is not a whole .gcdump)");
  }

  private int le32(int p) {
    return (b[p] & 0xFF) | (b[p + 1] & 0xFF) << 8 | (b[p + 2] & 0xFF) << 16 | b[p + 3] << 24;
  }

  /** dotnet-gcdump gives objects over 1 KB a type of their own: {@code X (Bytes > 10K)}. */
  static String withoutSizeSuffix(String name) {
    return name == null ? "" : name.replaceFirst(" ?\\(Bytes > \\d+[KM]\\)$", "");
  }

  /** A type object's header; returns its version. */
  private int typeHeader(String expected) {
    int[] v = typeObject(expected);
    return v[0];
  }

  private int typeHeaderMinReader(String expected) {
    return typeObject(expected)[1];
  }

  private int[] typeObject(String expected) {
    tag(BEGIN_OBJECT, "the type of " + expected);
    tag(NULL_REFERENCE, "the type of " + expected);
    int version = i32(expected + " version");
    int minReader = i32(expected + " reader version");
    String name = string(expected + " type name");
    if (!expected.equals(name)) {
      throw new GcDumpFormatException(at, "expected the type " + expected + ", found " + name);
    }
    tag(END_OBJECT, "the type of " + expected);
    return new int[] {version, minReader};
  }

  private void tag(int expected, String what) {
    need(1, what);
    int t = b[at] & 0xFF;
    if (t != expected) {
      throw new GcDumpFormatException(at, what + ": tag " + t + " where " + expected + " belongs");
    }
    at++;
  }

  private void need(long n, String what) {
    if (n < 0 || at + n > b.length) {
      throw new GcDumpFormatException(
          at, what + ": " + n + " bytes needed, " + (b.length - at) + " left (truncated?)");
    }
  }

  private int i32(String what) {
    need(4, what);
    int v = (b[at] & 0xFF) | (b[at + 1] & 0xFF) << 8 | (b[at + 2] & 0xFF) << 16 | b[at + 3] << 24;
    at += 4;
    return v;
  }

  private long i64(String what) {
    long lo = i32(what) & 0xFFFFFFFFL;
    long hi = i32(what);
    return hi << 32 | lo;
  }

  /** A count of items of at least {@code minSize} bytes each, checked against the bytes left. */
  private int count(String what, int minSize) {
    int n = i32(what);
    if (n < 0 || (long) n * minSize > b.length - at) {
      throw new GcDumpFormatException(
          at - 4, n + " " + what + " cannot fit in the " + (b.length - at) + " bytes left");
    }
    return n;
  }

  /** FastSerialization's string: i32 UTF-16 units (-1 null), each as 1 to 3 bytes. */
  private String string(String what) {
    int units = i32(what);
    if (units == -1) {
      return null;
    }
    if (units < 0 || units > b.length - at) {
      throw new GcDumpFormatException(at - 4, what + ": a string of " + units + " characters");
    }
    StringBuilder sb = new StringBuilder(units);
    for (int k = 0; k < units; k++) {
      need(1, what);
      int c = b[at++] & 0xFF;
      if (c >= 0x80) {
        need(c < 0xE0 ? 1 : 2, what);
        if (c < 0xE0) {
          c = (c & 0x1F) << 6 | (b[at++] & 0x3F);
        } else {
          c = (c & 0x0F) << 12 | (b[at] & 0x3F) << 6 | (b[at + 1] & 0x3F);
          at += 2;
        }
      }
      sb.append((char) c);
    }
    return sb.toString();
  }

  /**
   * The blob's compressed signed integer: 1 to 5 bytes, most significant group first, every byte
   * but the last with bit 7 set; the first byte's 7 bits are sign-extended.
   */
  private int cint(int end, String what) {
    if (at >= end) {
      throw new GcDumpFormatException(at, what + ": the blob ends");
    }
    int x = b[at++];
    int value = (x << 25) >> 25;
    int n = 1;
    while ((x & 0x80) != 0) {
      if (at >= end) {
        throw new GcDumpFormatException(at, what + ": the blob ends inside a number");
      }
      x = b[at++];
      if (++n == 5) {
        value = (value << 7) + (x & 0xFF);
        break;
      }
      value = (value << 7) + (x & 0x7F);
    }
    return value;
  }
}
