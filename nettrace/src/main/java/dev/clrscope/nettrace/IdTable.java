package dev.clrscope.nettrace;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The ids a writer gives values that are defined once and then referred to by id (stacks, V6 label
 * lists). A value's first use takes the next id and queues it for the next block of its kind, which
 * must go out ahead of the events that use it. Ids count from 1; callers keep 0 for "none".
 */
final class IdTable<T> {
  private final Map<T, Integer> ids = new HashMap<>();
  private final List<T> pending = new ArrayList<>();
  private int nextId = 1;
  private int firstPendingId = 1;

  /** The id of {@code value}, giving it the next one (and queueing it) on first use. */
  int id(T value) {
    Integer id = ids.get(value);
    if (id == null) {
      id = nextId++;
      ids.put(value, id);
      pending.add(value);
    }
    return id;
  }

  /** How many values wait to be written. */
  int pendingCount() {
    return pending.size();
  }

  /**
   * Writes the queued values in the layout stack and label list blocks share (i32 first id, i32
   * count, then each value) and takes them as written.
   */
  void writePending(GrowableBuffer b, BiConsumer<T, GrowableBuffer> encoder) {
    b.i32(firstPendingId);
    b.i32(pending.size());
    for (T value : pending) {
      encoder.accept(value, b);
    }
    pending.clear();
    firstPendingId = nextId;
  }

  /** Forgets every id, as the reader does at a sequence point; flush pending values first. */
  void restart() {
    ids.clear();
    nextId = 1;
    firstPendingId = 1;
  }
}
