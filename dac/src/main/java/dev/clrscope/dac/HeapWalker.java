package dev.clrscope.dac;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The fast heap walk: segments are read in large blocks, each object's method table and length are
 * read from the block, and the DAC is asked about a method table only the first time it is seen
 * (the type cache). Allocation contexts (the unused tail of each thread's allocation buffer) are
 * stepped over, as the GC itself does.
 */
final class HeapWalker {
  static final int BLOCK = 1 << 20;
  private static final int HEADER_OVERLAP = 64;

  private final ClrReader reader;
  private final long[] contextStarts;
  private final long[] contextEnds;
  private final ReadAhead readAhead;
  private final HeapProblems.Collector problems = new HeapProblems.Collector();

  /**
   * @param contexts allocation contexts as {@code [start, limit]} pairs
   */
  HeapWalker(ClrReader reader, List<long[]> contexts) {
    this.reader = reader;
    this.readAhead = new ReadAhead(reader.memory());
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

  /**
   * A walk on a thread beside the owner's: its types come from the owner through {@code requests},
   * kept here once answered, and it stops once they are closed.
   */
  HeapWalker beside(TypeRequests requests) {
    this.asks = requests;
    this.askedTypes = new LongMap<>();
    return this;
  }

  /** A walk on the owner thread that answers {@code requests} between its objects. */
  HeapWalker serving(TypeRequests requests) {
    this.serves = requests;
    return this;
  }

  private TypeRequests asks;
  private LongMap<ClrType> askedTypes;
  private TypeRequests serves;

  private ClrType typeOrNull(long mt) {
    if (asks == null) {
      return reader.typeOrNull(mt);
    }
    ClrType t = askedTypes.get(mt);
    if (t == null && mt != 0) {
      t = asks.typeOrNull(mt);
      if (t != null) {
        askedTypes.put(mt, t);
      }
    }
    return t;
  }

  /**
   * The word at {@code address}, or 0 when it is not readable: read here rather than through the
   * reader's own buffer, which a walk beside the owner's must not share.
   */
  private long wordOrZero(long address) {
    byte[] w = new byte[8];
    return reader.memory().read(address, w, 0, 8) == 8
        ? ByteBuffer.wrap(w).order(ByteOrder.LITTLE_ENDIAN).getLong()
        : 0;
  }

  WalkSummary walk(List<HeapSegment> segments, HeapVisitor visitor) {
    long started = System.nanoTime();
    HeapObject obj = new HeapObject(reader);
    long objects = 0;
    long total = 0;
    try {
      for (HeapSegment segment : segments) {
        long[] counts = walkSegment(segment, obj, visitor);
        objects += counts[0];
        total += counts[1];
      }
    } finally {
      readAhead.finish();
    }
    return new WalkSummary(
        objects, total, segments.size(), problems.done(), System.nanoTime() - started);
  }

  // The rest of the segment, from address, is not walked: counted, never passed over in silence.
  private void problem(HeapProblem.Kind kind, HeapSegment segment, long address, String reason) {
    problems.add(new HeapProblem(kind, segment, address, segment.end() - address, reason));
  }

  /**
   * The types of the method tables met last, by a few bits of the method table: heaps interleave a
   * few types (an object, its string, its array), and each is then found without a map's lookup.
   */
  private static final int RECENT = 64;

  private final long[] recentMt = new long[RECENT];
  private final ClrType[] recentType = new ClrType[RECENT];

  private long[] walkSegment(HeapSegment segment, HeapObject obj, HeapVisitor visitor) {
    long end = segment.end();
    long address = segment.start();
    boolean skipContexts =
        segment.kind() != SegmentKind.LARGE && segment.kind() != SegmentKind.FROZEN;
    int ctx = lowerBound(contextStarts, address);
    long base = 0;
    int length = 0;
    ByteBuffer block = null;
    long[] words = null;
    long objects = 0;
    long bytesSeen = 0;
    obj.segment = segment;
    while (Long.compareUnsigned(address, end) < 0) {
      if ((objects & 0xffff) == 0) {
        if (asks == null) {
          reader.session().checkStop();
        } else {
          asks.checkOpen();
        }
      }
      if (serves != null) {
        serves.serve();
      }
      if (skipContexts) {
        while (ctx < contextStarts.length
            && Long.compareUnsigned(contextStarts[ctx], address) < 0) {
          ctx++;
        }
        if (ctx < contextStarts.length && contextStarts[ctx] == address) {
          // The rest of a thread's allocation buffer holds no objects yet.
          address = contextEnds[ctx] + ClrReader.MIN_OBJECT_SIZE;
          ctx++;
          continue;
        }
      }
      long into = address - base;
      if (length == 0 || into < 0 || into + ClrReader.MIN_OBJECT_SIZE > length) {
        int want = (int) Math.min(BLOCK, end - address);
        ByteBuffer next = readAhead.block(address, want);
        block = next;
        base = readAhead.base();
        length = readAhead.length();
        into = address - base;
        obj.block = block;
        obj.blockBase = base;
        obj.blockLength = length;
        words = readAhead.words();
        obj.words = words;
        if (length - into < Math.min(end - address, ClrReader.MIN_OBJECT_SIZE)) {
          if (address == segment.start()) {
            problem(
                HeapProblem.Kind.SEGMENT_MISSING,
                segment,
                address,
                "none of its memory is in the dump (or readable)");
          } else {
            problem(
                HeapProblem.Kind.MEMORY_MISSING,
                segment,
                address,
                "its memory from there is not in the dump (or readable)");
          }
          length = 0;
          break;
        }
        // The next block, read while this one is parsed: it overlaps this one by an object
        // header, so an object that starts near the end is whole in one of them.
        if (length == BLOCK && Long.compareUnsigned(base + length, end) < 0) {
          long after = base + length - HEADER_OVERLAP;
          readAhead.prefetch(after, (int) Math.min(BLOCK, end - after));
        }
      }
      int at = (int) into;
      long mt = (words != null ? words[at >>> 3] : block.getLong(at)) & ~7L;
      ClrType type;
      int recent = (int) (mt >>> 3) & (RECENT - 1);
      if (recentMt[recent] == mt && mt != 0) {
        type = recentType[recent];
      } else {
        type = typeOrNull(mt);
        if (type == null) {
          problem(
              HeapProblem.Kind.TYPE_UNREADABLE,
              segment,
              address,
              wordOrZero(mt) == 0 && mt != 0
                  ? "the object's type, method table 0x"
                      + Long.toHexString(mt)
                      + ", is not in the dump"
                  : "no object here: 0x" + Long.toHexString(mt) + " is not a method table");
          break;
        }
        recentType[recent] = type;
        recentMt[recent] = mt;
      }
      long size =
          type.instanceSize(
              type.componentSize() == 0
                  ? 0
                  : Integer.toUnsignedLong(
                      words != null ? (int) words[(at >>> 3) + 1] : block.getInt(at + 8)));
      long aligned = (size + 7) & ~7L;
      if (Long.compareUnsigned(address + aligned, end) > 0 || aligned <= 0) {
        problem(
            HeapProblem.Kind.OBJECT_PAST_END,
            segment,
            address,
            type.name() + " of " + size + " bytes would end past the segment");
        break;
      }
      obj.address = address;
      obj.type = type;
      obj.size = size;
      obj.alignedSize = aligned;
      visitor.visit(obj);
      objects++;
      bytesSeen += size;
      address += aligned;
    }
    return new long[] {objects, bytesSeen};
  }

  /**
   * Two buffers: the one being parsed, and the next block read meanwhile on a second thread (target
   * memory may be read from any thread). A prefetch the walk does not use (it jumped over a large
   * object) is dropped.
   */
  private static final class ReadAhead {
    private static final ExecutorService READER =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "clrscope-dac read-ahead");
              t.setDaemon(true);
              return t;
            });

    private final dev.clrscope.dac.source.TargetMemory memory;
    private byte[] current = new byte[BLOCK];
    private byte[] spare = new byte[BLOCK];
    // The blocks as little-endian words, when they start on a word: the walk's reads of a method
    // table, a length or a reference are then an array's element, not a ByteBuffer's several
    // calls (a sixth of the walk's time with the quick compiler).
    private long[] currentWords = new long[BLOCK / 8];
    private long[] spareWords = new long[BLOCK / 8];
    private boolean currentAligned;
    private long base;
    private int length;
    private Future<Integer> pending;
    private long pendingBase;

    ReadAhead(dev.clrscope.dac.source.TargetMemory memory) {
      this.memory = memory;
    }

    long base() {
      return base;
    }

    int length() {
      return length;
    }

    /** The current block as words, or null when it does not start on a word. */
    long[] words() {
      return currentAligned ? currentWords : null;
    }

    /**
     * Reads {@code want} bytes at {@code address} into {@code into} and, as words, {@code words}.
     */
    private int read(long address, byte[] into, long[] words, int want) {
      int n = memory.read(address, into, 0, want);
      if ((address & 7) == 0 && n > 0) {
        ByteBuffer.wrap(into, 0, n & ~7)
            .order(ByteOrder.LITTLE_ENDIAN)
            .asLongBuffer()
            .get(words, 0, n >>> 3);
      }
      return n;
    }

    /** A block holding {@code address}: the prefetched one if it does, else read now. */
    ByteBuffer block(long address, int want) {
      Integer prefetched = awaitPending();
      if (prefetched != null
          && address - pendingBase >= 0
          && address - pendingBase + ClrReader.MIN_OBJECT_SIZE <= prefetched) {
        byte[] t = current;
        current = spare;
        spare = t;
        long[] w = currentWords;
        currentWords = spareWords;
        spareWords = w;
        base = pendingBase;
        length = prefetched;
      } else {
        base = address;
        length = read(address, current, currentWords, want);
      }
      currentAligned = (base & 7) == 0;
      return ByteBuffer.wrap(current).order(ByteOrder.LITTLE_ENDIAN);
    }

    void prefetch(long address, int want) {
      byte[] into = spare;
      long[] words = spareWords;
      pendingBase = address;
      pending = READER.submit(() -> read(address, into, words, want));
    }

    private Integer awaitPending() {
      Future<Integer> p = pending;
      pending = null;
      if (p == null) {
        return null;
      }
      try {
        return p.get();
      } catch (ExecutionException e) {
        return null;
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return null;
      }
    }

    void finish() {
      awaitPending();
    }
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
