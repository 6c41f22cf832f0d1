package dev.clrscope.nettrace;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * What the parser made of one block when it parses ahead on a thread of its own ({@link
 * NetTraceReader}'s pipelined reading): the events to hand to the orderer, in file order with their
 * capture threads, the points where everything queued is to be released (sequence points, the end),
 * and the reader's counters as they stood after the block. The reading thread replays it onto its
 * orderer, so that events come out exactly as if it had parsed the block itself.
 */
final class ParsedBatch {
  final List<TraceEvent> events;

  /** Each event's capture thread; null: hand it out in file order (netperf V3). */
  final List<CaptureThread> threads;

  /** A batch with room for {@code expected} events (the last block's count, say). */
  ParsedBatch(int expected) {
    events = new ArrayList<>(expected);
    threads = new ArrayList<>(expected);
  }

  /** Before which event (its index in {@link #events}) everything queued is released. */
  private int[] releases = new int[2];

  private int releaseCount;

  /** Where the whole blocks read so far end; -1: unchanged (the block failed). */
  long completeBytes = -1;

  long droppedEvents;
  long blocksRead;
  long sequencePoints;

  /** The stream's end marker was read: nothing follows. */
  boolean reachedEnd;

  long trailingBytes;

  /** The block could not be parsed: reading ends here, as the reader's mode says. */
  NetTraceFormatException formatError;

  /** Anything else the parsing thread met (an I/O failure): rethrown by the reading thread. */
  Throwable failure;

  /** Whether nothing follows this batch. */
  boolean last() {
    return reachedEnd || formatError != null || failure != null;
  }

  /** A whole block's events, with their threads. */
  void addAll(List<TraceEvent> blockEvents, List<CaptureThread> blockThreads) {
    events.addAll(blockEvents);
    threads.addAll(blockThreads);
  }

  void releaseAll() {
    if (releaseCount == releases.length) {
      releases = Arrays.copyOf(releases, releaseCount * 2);
    }
    releases[releaseCount++] = events.size();
  }

  /** Hands the events to {@code orderer} and releases where the parser released. */
  void replay(EventOrderer orderer) {
    int r = 0;
    for (int i = 0, n = events.size(); i < n; i++) {
      for (; r < releaseCount && releases[r] == i; r++) {
        orderer.releaseAll();
      }
      CaptureThread t = threads.get(i);
      if (t == null) {
        orderer.addInFileOrder(events.get(i));
      } else {
        orderer.add(t, events.get(i));
      }
    }
    for (; r < releaseCount; r++) {
      orderer.releaseAll();
    }
  }
}
