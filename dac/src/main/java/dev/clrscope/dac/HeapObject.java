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
