package dev.clrscope.nettrace;

import java.util.ArrayDeque;

/**
 * Per capture thread, the orderer's: the events waiting to be merged. (The parser keeps the last
 * sequence number apart: when it parses ahead, this is the other thread's.)
 */
final class CaptureThread {
  final long id;

  final ArrayDeque<TraceEvent> queue = new ArrayDeque<>();

  /** Timestamp and arrival of {@code queue.peek()}, cached for the merge heap's comparisons. */
  long headTimestamp;

  long headArrival;

  /** Position in the merge heap, or -1 when not in it (queue empty). */
  int heapIndex = -1;

  CaptureThread(long id) {
    this.id = id;
  }
}
