package dev.clrscope.nettrace;

import java.util.ArrayDeque;
import java.util.Arrays;

/**
 * Restores timestamp order across capture threads.
 *
 * <p>The runtime writes each thread's events in runs; the first event of a run is flagged sorted,
 * meaning every event older than it has already been written. Unsorted events wait in their
 * thread's queue. A sorted event (or a sequence point, or the end of the stream) releases every
 * queued event older than it, merged through a min-heap of thread queues keyed on each queue's
 * head, so releasing N events from T threads costs O(N log T) instead of a scan per event.
 * Timestamp ties go to the event that came first in the file, which keeps output deterministic.
 *
 * <p>Live ordering ({@link NetTraceReader#openLive}) ignores the sorted flag: every event waits in
 * its thread's queue until the parser calls {@link #releaseAll()} at the end of its block, so a
 * block's events come out merged by timestamp among themselves and nothing waits for a later block.
 */
final class EventOrderer {
  private final boolean live;
  private CaptureThread[] heap = new CaptureThread[16];
  private int heapSize;
  private final ArrayDeque<TraceEvent> ready = new ArrayDeque<>();

  /** An orderer for global order ({@code live} false) or for per-block order (true). */
  EventOrderer(boolean live) {
    this.live = live;
  }

  /** Accepts the next event of {@code thread} in file order. */
  void add(CaptureThread thread, TraceEvent e) {
    if (e.isSorted() && !live) {
      releaseOlderThan(e.timestamp());
      ready.add(e);
      return;
    }
    if (thread.queue.isEmpty()) {
      thread.headTimestamp = e.timestamp();
      thread.headArrival = e.arrival;
    }
    thread.queue.add(e);
    if (thread.heapIndex < 0) {
      insert(thread);
    }
  }

  /** Hands out events in file order without merging (netperf V3 has no ordering metadata). */
  void addInFileOrder(TraceEvent e) {
    ready.add(e);
  }

  /** Releases every queued event. */
  void releaseAll() {
    releaseOlderThan(Long.MAX_VALUE);
    // Events at exactly Long.MAX_VALUE would stay behind the strict comparison.
    while (heapSize > 0) {
      popRootEvent();
    }
  }

  TraceEvent poll() {
    return ready.poll();
  }

  boolean hasReady() {
    return !ready.isEmpty();
  }

  /** Events waiting in thread queues, for tests and diagnostics. */
  int queuedCount() {
    int n = 0;
    for (int i = 0; i < heapSize; i++) {
      n += heap[i].queue.size();
    }
    return n;
  }

  private void releaseOlderThan(long stopTimestamp) {
    while (heapSize > 0 && heap[0].headTimestamp < stopTimestamp) {
      popRootEvent();
    }
  }

  private void popRootEvent() {
    CaptureThread t = heap[0];
    ready.add(t.queue.poll());
    TraceEvent head = t.queue.peek();
    if (head == null) {
      removeRoot();
    } else {
      t.headTimestamp = head.timestamp();
      t.headArrival = head.arrival;
      siftDown(0);
    }
  }

  private static boolean less(CaptureThread a, CaptureThread b) {
    return a.headTimestamp < b.headTimestamp
        || (a.headTimestamp == b.headTimestamp && a.headArrival < b.headArrival);
  }

  private void insert(CaptureThread t) {
    if (heapSize == heap.length) {
      heap = Arrays.copyOf(heap, heapSize * 2);
    }
    heap[heapSize] = t;
    t.heapIndex = heapSize;
    siftUp(heapSize++);
  }

  private void removeRoot() {
    heap[0].heapIndex = -1;
    heapSize--;
    if (heapSize > 0) {
      heap[0] = heap[heapSize];
      heap[0].heapIndex = 0;
      siftDown(0);
    }
    heap[heapSize] = null;
  }

  private void siftUp(int i) {
    CaptureThread t = heap[i];
    while (i > 0) {
      int parent = (i - 1) >>> 1;
      if (!less(t, heap[parent])) {
        break;
      }
      heap[i] = heap[parent];
      heap[i].heapIndex = i;
      i = parent;
    }
    heap[i] = t;
    t.heapIndex = i;
  }

  private void siftDown(int i) {
    CaptureThread t = heap[i];
    while (true) {
      int child = 2 * i + 1;
      if (child >= heapSize) {
        break;
      }
      if (child + 1 < heapSize && less(heap[child + 1], heap[child])) {
        child++;
      }
      if (!less(heap[child], t)) {
        break;
      }
      heap[i] = heap[child];
      heap[i].heapIndex = i;
      i = child;
    }
    heap[i] = t;
    t.heapIndex = i;
  }
}
