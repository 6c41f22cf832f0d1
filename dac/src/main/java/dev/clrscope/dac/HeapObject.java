package dev.clrscope.dac;

import java.nio.ByteBuffer;

/**
 * The object a heap walk stands on: its address, type, size and generation, and its references read
 * from the memory block the walk has already read (no further read for an object inside it, no DAC
 * call at all). Valid only during {@link HeapVisitor#visit}: the walk reuses it.
 */
public final class HeapObject {
  private final ClrReader reader;
  long address;
  ClrType type;
  long size;
  long alignedSize;
  HeapSegment segment;
  // The walk's current block: bytes [blockBase, blockBase + blockLength) of target memory.
  ByteBuffer block;
  // The same block as words, or null when it does not start on a word.
  long[] words;
  long blockBase;
  int blockLength;
  // Reads outside the walk's block (the elements of a large array).
  private final MemoryWindow window;

  HeapObject(ClrReader reader) {
    this.reader = reader;
    this.window = new MemoryWindow(reader.memory(), 1 << 20);
  }

  /** The object's address. */
  public long address() {
    return address;
  }

  /** Its type. */
  public ClrType type() {
    return type;
  }

  /**
   * Its size as SOS counts it (dumpheap's sizes): base size plus elements, not rounded to the
   * heap's alignment, at least 24 bytes.
   */
  public long size() {
    return size;
  }

  /** The bytes it takes in the heap: {@link #size} rounded up to 8. */
  public long alignedSize() {
    return alignedSize;
  }

  /** Its generation. */
  public Generation generation() {
    return segment.generationOf(address);
  }

  /** The segment it is in. */
  public HeapSegment segment() {
    return segment;
  }

  /** For arrays and strings, the element (character) count; else 0. */
  public long count() {
    return type.componentSize() == 0 ? 0 : Integer.toUnsignedLong((int) (word(8) & 0xffffffffL));
  }

  /** Calls {@code visitor} for each non-null reference the object holds. */
  public void references(ReferenceVisitor visitor) {
    if (!type.containsPointers()) {
      return;
    }
    GcDesc desc = reader.gcDescOf(type);
    if (desc == null) {
      return;
    }
    // One slot visitor for the walk, not one per object: a walk meets millions.
    ReferenceVisitor outer = receiver;
    receiver = visitor;
    try {
      desc.forEachSlot(size, slots);
    } finally {
      receiver = outer;
    }
  }

  /**
   * Reads the object's non-null references into {@link #gathered()}, from its start, when the
   * walk's block holds all of it as words (nearly every object): the references with no call per
   * reference.
   *
   * @return how many there are, or -1 when they were not read so ({@link #references} reads them)
   */
  public int gatherReferences() {
    if (!type.containsPointers()) {
      return 0;
    }
    GcDesc desc = reader.gcDescOf(type);
    if (desc == null) {
      return 0;
    }
    long at = address - blockBase;
    long[] w = words;
    if (w == null || block == null || at < 0 || at + alignedSize > blockLength) {
      return -1;
    }
    // The walk's block is 1 MiB: an object inside it has at most 128 Ki words.
    int slots = (int) (alignedSize >>> 3);
    if (gathered.length < slots) {
      gathered = new long[Math.max(slots, 2 * gathered.length)];
    }
    return desc.gather(size, w, (int) (at >>> 3), gathered);
  }

  /** Where {@link #gatherReferences} put the references; reused for every object. */
  public long[] gathered() {
    return gathered;
  }

  private long[] gathered = new long[64];

  /** Receives an object's non-null references some at a time: {@code targets[0..n)}. */
  public interface ReferenceRuns {
    void references(long[] targets, int n);
  }

  /**
   * Hands the object's non-null references to {@code sink}, in {@link #references}' order, some
   * thousands at a time: for an object the walk's block does not hold (a large array), read a run
   * of words at a time rather than a word at a time.
   *
   * @return how many there were
   */
  public long referenceRuns(ReferenceRuns sink) {
    if (!type.containsPointers()) {
      return 0;
    }
    GcDesc desc = reader.gcDescOf(type);
    if (desc == null) {
      return 0;
    }
    if (gathered.length < RUN) {
      gathered = new long[RUN];
    }
    runSink = sink;
    runCount = 0;
    try {
      if (!desc.forEachRun(size, runs)) {
        // Slots that are not whole words: one at a time, handed on in the same pieces.
        references(
            (long target, long offset) -> {
              gathered[runPending++] = target;
              if (runPending == RUN) {
                flushRun();
              }
            });
        flushRun();
      }
    } finally {
      runSink = null;
    }
    return runCount;
  }

  /** The words {@link #referenceRuns} reads and hands on at a time. */
  private static final int RUN = 1 << 14;

  private ReferenceRuns runSink;
  private long runCount;
  private int runPending;

  private void flushRun() {
    if (runPending > 0) {
      runSink.references(gathered, runPending);
      runCount += runPending;
      runPending = 0;
    }
  }

  private final GcDesc.RunVisitor runs = this::run;

  private void run(long offset, long count) {
    long from = address + offset;
    long end = address + alignedSize;
    long[] into = gathered;
    while (count > 0) {
      int k = (int) Math.min(count, RUN);
      long at = from - blockBase;
      long[] w = words;
      if (w != null && block != null && at >= 0 && at + 8L * k <= blockLength) {
        System.arraycopy(w, (int) (at >>> 3), into, 0, k);
      } else {
        window.words(from, end, into, k);
      }
      int m = 0;
      for (int j = 0; j < k; j++) {
        long target = into[j];
        if (target != 0) {
          into[m++] = target;
        }
      }
      if (m > 0) {
        runSink.references(into, m);
        runCount += m;
      }
      from += 8L * k;
      count -= k;
    }
  }

  /** Whom {@link #slots} hands references to, during {@link #references}. */
  private ReferenceVisitor receiver;

  private final GcDesc.SlotVisitor slots =
      offset -> {
        long target = word(offset);
        if (target != 0) {
          receiver.reference(target, offset);
        }
      };

  /** The 8 bytes at {@code offset} from the object's start. */
  public long word(long offset) {
    long at = address + offset - blockBase;
    if (block != null && at >= 0 && at + 8 <= blockLength) {
      long[] w = words;
      return w != null && (at & 7) == 0 ? w[(int) (at >>> 3)] : block.getLong((int) at);
    }
    return window.word(address + offset, address + alignedSize);
  }

  /** A lasting view of this object, for reading its fields. */
  public ClrObject toObject() {
    return reader.session().call(() -> reader.objectOf(address, type, size));
  }

  @Override
  public String toString() {
    return "0x" + Long.toHexString(address) + " " + type.name() + " (" + size + " bytes)";
  }
}
