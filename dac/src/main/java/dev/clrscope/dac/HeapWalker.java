package dev.clrscope.dac;

import dev.clrscope.dac.target.TargetMemory;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The fast heap walk: segments are read in large blocks, each object's method table and length are
 * read from the block, and the DAC is asked about a method table only the first time it is seen
 * (the type cache). Allocation contexts (the unused tail of each thread's allocation buffer) are
 * stepped over, as the GC itself does.
 */
final class HeapWalker {
  static final int BLOCK = 1 << 20;
  private static final int MAX_PROBLEMS = 100;

  private final ClrProcess process;
  private final TargetMemory memory;
  private final long[] contextStarts;
  private final long[] contextEnds;
  private final byte[] bytes = new byte[BLOCK];
  private final ByteBuffer block = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
  private final List<HeapProblem> problems = new ArrayList<>();
  private int skippedProblems;

  /**
   * @param contexts allocation contexts as {@code [start, limit]} pairs
   */
  HeapWalker(ClrProcess process, TargetMemory memory, List<long[]> contexts) {
    this.process = process;
    this.memory = memory;
    long[][] sorted =
        contexts.stream()
            .filter(c -> c[0] != 0 && Long.compareUnsigned(c[0], c[1]) < 0)
            .toArray(long[][]::new);
    Arrays.sort(sorted, (a, b) -> Long.compareUnsigned(a[0], b[0]));
    contextStarts = new long[sorted.length];
    contextEnds = new long[sorted.length];
    for (int i = 0; i < sorted.length; i++) {
      contextStarts[i] = sorted[i][0];
      contextEnds[i] = sorted[i][1];
    }
  }

  WalkSummary walk(List<HeapSegment> segments, HeapVisitor visitor) {
    long started = System.nanoTime();
    HeapObject obj = new HeapObject(process);
    obj.block = block;
    long objects = 0;
    long total = 0;
    for (HeapSegment segment : segments) {
      long[] counts = walkSegment(segment, obj, visitor);
      objects += counts[0];
      total += counts[1];
    }
    return new WalkSummary(
        objects,
        total,
        segments.size(),
        List.copyOf(problems),
        skippedProblems,
        System.nanoTime() - started);
  }

  private void problem(HeapSegment segment, long address, String reason) {
    if (problems.size() < MAX_PROBLEMS) {
      problems.add(new HeapProblem(segment, address, reason));
    } else {
      skippedProblems++;
    }
  }

  private long[] walkSegment(HeapSegment segment, HeapObject obj, HeapVisitor visitor) {
    long end = segment.end();
    long address = segment.start();
    boolean skipContexts =
        segment.kind() != SegmentKind.LARGE && segment.kind() != SegmentKind.FROZEN;
    int ctx = lowerBound(contextStarts, address);
    long base = 0;
    int length = 0;
    long objects = 0;
    long bytesSeen = 0;
    ClrType lastType = null;
    long lastMt = 0;
    obj.segment = segment;
    while (Long.compareUnsigned(address, end) < 0) {
      if ((objects & 0xffff) == 0) {
        process.checkStop();
      }
      if (skipContexts) {
        while (ctx < contextStarts.length
            && Long.compareUnsigned(contextStarts[ctx], address) < 0) {
          ctx++;
        }
        if (ctx < contextStarts.length && contextStarts[ctx] == address) {
          // The rest of a thread's allocation buffer holds no objects yet.
          address = contextEnds[ctx] + ClrProcess.MIN_OBJECT_SIZE;
          ctx++;
          continue;
        }
      }
      long into = address - base;
      if (length == 0 || into < 0 || into + ClrProcess.MIN_OBJECT_SIZE > length) {
        base = address;
        into = 0;
        int want = (int) Math.min(BLOCK, end - address);
        length = memory.read(address, bytes, 0, want);
        obj.blockBase = base;
        obj.blockLength = length;
        if (length < Math.min(want, ClrProcess.MIN_OBJECT_SIZE)) {
          problem(segment, address, "memory not in the dump or not readable");
          length = 0;
          break;
        }
      }
      int at = (int) into;
      long mt = block.getLong(at) & ~7L;
      ClrType type;
      if (mt == lastMt && lastType != null) {
        type = lastType;
      } else {
        type = process.typeOrNull(mt);
        if (type == null) {
          problem(
              segment,
              address,
              "no object here: 0x" + Long.toHexString(mt) + " is not a method table");
          break;
        }
        lastType = type;
        lastMt = mt;
      }
      long size;
      int component = type.componentSize();
      if (component == 0) {
        size = type.baseSize();
      } else {
        long count = Integer.toUnsignedLong(block.getInt(at + 8));
        size = type.baseSize() + count * component;
      }
      if (size < ClrProcess.MIN_OBJECT_SIZE) {
        size = ClrProcess.MIN_OBJECT_SIZE;
      }
      long aligned = (size + 7) & ~7L;
      if (Long.compareUnsigned(address + aligned, end) > 0 || aligned <= 0) {
        problem(
            segment, address, type.name() + " of " + size + " bytes would end past the segment");
        break;
      }
      obj.address = address;
      obj.type = type;
      obj.size = size;
      obj.alignedSize = aligned;
      obj.generation = segment.generationOf(address);
      visitor.visit(obj);
      objects++;
      bytesSeen += size;
      address += aligned;
    }
    return new long[] {objects, bytesSeen};
  }

  private static int lowerBound(long[] sorted, long key) {
    int lo = 0;
    int hi = sorted.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (Long.compareUnsigned(sorted[mid], key) < 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }
}
