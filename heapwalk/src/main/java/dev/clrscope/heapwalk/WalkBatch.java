package dev.clrscope.heapwalk;

/**
 * A piece of an exact walk (a core's heap read through its DAC) on its way to the builder: objects
 * in address order and the references they hold, in the same order, each object's after the ones
 * before it. A batch may end inside an object's references: the rest come in the next one, before
 * its row. The walk fills it in place ({@link #targets()} directly), {@link WalkFeed} hands it to
 * the builder and back empty.
 */
public final class WalkBatch {
  /** Objects a batch holds. */
  static final int OBJECTS = 4096;

  /** References a batch holds. */
  static final int TARGETS = 1 << 15;

  final long[] address = new long[OBJECTS];
  final long[] size = new long[OBJECTS];
  final long[] type = new long[OBJECTS];
  final long[] references = new long[OBJECTS];
  int objects;
  private final long[] targets = new long[TARGETS];
  int targetCount;

  WalkBatch() {}

  /**
   * The next object, after its {@code referenceCount} references (0 references are none: not
   * given).
   *
   * @return whether the batch is full of objects now
   */
  public boolean object(long objectAddress, long objectSize, long typeId, int referenceCount) {
    int i = objects++;
    address[i] = objectAddress;
    size[i] = objectSize;
    type[i] = typeId;
    references[i] = referenceCount;
    return objects == OBJECTS;
  }

  /** The array the walk writes references' addresses into, from the start. */
  public long[] targets() {
    return targets;
  }

  /** How many of {@link #targets()} the walk wrote. */
  public void targetsWritten(int n) {
    targetCount = n;
  }

  void clear() {
    objects = 0;
    targetCount = 0;
  }
}
