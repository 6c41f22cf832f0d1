package dev.clrscope.nettrace;

import java.util.ArrayDeque;

/** Per capture thread: the last sequence number seen and the events waiting to be merged. */
final class CaptureThread {
  final long id;

  /** Sequence number of the last event (or sequence point) seen for this thread. */
  int lastSequence;

  final ArrayDeque<TraceEvent> queue = new ArrayDeque<>();

  /** Timestamp and arrival of {@code queue.peek()}, cached for the merge heap's comparisons. */
  long headTimestamp;

  long headArrival;

  /** Position in the merge heap, or -1 when not in it (queue empty). */
  int heapIndex = -1;

  CaptureThread(long id, int lastSequence) {
    this.id = id;
    this.lastSequence = lastSequence;
  }
}
