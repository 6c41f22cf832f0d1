package dev.clrscope.heapwalk;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A managed heap as one forced GC walked it: every object (address, size, type), its references in
 * node order, and the roots. Objects and references live in primitive arrays, one entry per object
 * or reference, never an object each.
 *
 * <pre>
 *  object i:  address[i]  size[i]  typeId[i]  edges firstEdge[i] .. firstEdge[i+1]-1
 *  edge j:    target[j]   (an object's address)
 *  root k:    rootAddress[k]  rootKind[k] (0 stack, 1 finalizer queue, 2 handle, 3 older, 4 sized ref, 5 overflow)
 * </pre>
 */
public final class HeapSnapshot {
  private final long gcNumber;
  private final long[] address;
  private final long[] size;
  private final long[] typeId;
  private final long[] firstEdge;
  private final long[] target;
  private final long[] rootAddress;
  private final byte[] rootKind;
  private final Map<Long, String> typeNames;
  private final List<String> problems;

  HeapSnapshot(
      long gcNumber,
      long[] address,
      long[] size,
      long[] typeId,
      long[] firstEdge,
      long[] target,
      long[] rootAddress,
      byte[] rootKind,
      Map<Long, String> typeNames,
      List<String> problems) {
    this.gcNumber = gcNumber;
    this.address = address;
    this.size = size;
    this.typeId = typeId;
    this.firstEdge = firstEdge;
    this.target = target;
    this.rootAddress = rootAddress;
    this.rootKind = rootKind;
    this.typeNames = Map.copyOf(typeNames);
    this.problems = List.copyOf(problems);
  }

  /** The number of the GC that walked the heap. */
  public long gcNumber() {
    return gcNumber;
  }

  /** How many objects the walk reported. */
  public int objectCount() {
    return address.length;
  }

  /** How many references between objects it reported. */
  public long referenceCount() {
    return target.length;
  }

  /** How many roots it reported. */
  public int rootCount() {
    return rootAddress.length;
  }

  /** The sum of every object's size. */
  public long totalSize() {
    long total = 0;
    for (long s : size) {
      total += s;
    }
    return total;
  }

  /**
   * What does not add up: lost events (a gap in a stream's index), references left over or missing,
   * types without a name, the GC's end not seen. Empty for a whole snapshot.
   */
  public List<String> problems() {
    return problems;
  }

  /** The type's name as the runtime writes it, or {@code UNKNOWN 0x…} when it sent none. */
  public String typeName(long id) {
    String n = typeNames.get(id);
    return n != null ? n : "UNKNOWN 0x" + Long.toHexString(id);
  }

  /**
   * Per type: how many objects and their total size, largest total first (then by name).
   *
   * @return one row per type that has objects
   */
  public List<TypeStatistics> typeStatistics() {
    Map<Long, long[]> byType = new HashMap<>();
    for (int i = 0; i < address.length; i++) {
      long[] t = byType.computeIfAbsent(typeId[i], k -> new long[2]);
      t[0]++;
      t[1] += size[i];
    }
    List<TypeStatistics> rows = new ArrayList<>(byType.size());
    byType.forEach((id, t) -> rows.add(new TypeStatistics(typeName(id), t[0], t[1])));
    rows.sort(
        Comparator.comparingLong(TypeStatistics::totalSize)
            .reversed()
            .thenComparing(TypeStatistics::type));
    return rows;
  }

  /** The references of object {@code i}: the addresses it points to. */
  public long[] referencesOf(int i) {
    return Arrays.copyOfRange(target, (int) firstEdge[i], (int) firstEdge[i + 1]);
  }

  /** The root kinds by their number in the runtime's GCBulkRootEdge events. */
  public int rootsOfKind(int kind) {
    int n = 0;
    for (byte k : rootKind) {
      if (k == kind) {
        n++;
      }
    }
    return n;
  }
}
