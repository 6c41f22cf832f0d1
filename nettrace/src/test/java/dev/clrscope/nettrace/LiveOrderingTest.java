package dev.clrscope.nettrace;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Live ordering ({@link NetTraceReader#openLive}) against a stream that, like a live session,
 * delivers one flush (complete blocks) at a time and then blocks until the next one is released.
 */
class LiveOrderingTest {
  private final ExecutorService executor = Executors.newSingleThreadExecutor();

  @AfterEach
  void shutDown() {
    executor.shutdownNow();
  }

  /** Records the bytes a writer produces, cut at each {@code flush()}: one chunk per flush. */
  static final class FlushRecorder extends ByteArrayOutputStream {
    final List<byte[]> chunks = new ArrayList<>();
    private int cut;

    @Override
    public synchronized void flush() {
      if (count > cut) {
        chunks.add(Arrays.copyOfRange(buf, cut, count));
        cut = count;
      }
    }

    @Override
    public void close() {
      flush();
    }
  }

  /** Hands out released chunks and blocks, as a socket would, until the next one is released. */
  static final class ChunkFeed extends InputStream {
    private static final byte[] END = new byte[0];
    private final LinkedBlockingQueue<byte[]> released = new LinkedBlockingQueue<>();
    private byte[] current = new byte[0];
    private int pos;

    void release(byte[] chunk) {
      released.add(chunk);
    }

    void end() {
      released.add(END);
    }

    @Override
    public int read() {
      byte[] one = new byte[1];
      return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) {
      if (current == END) {
        return -1;
      }
      while (pos == current.length) {
        try {
          current = released.take();
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return -1;
        }
        pos = 0;
        if (current == END) {
          return -1;
        }
      }
      int n = Math.min(len, current.length - pos);
      System.arraycopy(current, pos, b, off, n);
      pos += n;
      return n;
    }
  }

  private static void event(
      NetTraceWriter w, int seq, long captureThread, long timestamp, boolean sorted) {
    w.writeEvent(
        SyntheticTraceTest.GC_START,
        seq,
        captureThread,
        captureThread,
        0,
        timestamp,
        Guid.EMPTY,
        Guid.EMPTY,
        StackTrace.EMPTY,
        sorted,
        SyntheticTraceTest.gcStartPayload(seq));
  }

  /**
   * Two flushes as the runtime writes them. Flush 1: thread 1's run (100 sorted, 300, 500), then
   * thread 2's run (200 sorted, 400). Flush 2: thread 3's run at 250 (a straggler older than most
   * of flush 1), thread 2's run at 450.
   */
  static List<byte[]> twoFlushes() {
    FlushRecorder out = new FlushRecorder();
    try (NetTraceWriter w = NetTraceWriter.create(out, SyntheticTraceTest.HEADER)) {
      event(w, 1, 1, 100, true);
      event(w, 2, 1, 300, false);
      event(w, 3, 1, 500, false);
      event(w, 1, 2, 200, true);
      event(w, 2, 2, 400, false);
      w.flush();
      event(w, 1, 3, 250, true);
      event(w, 3, 2, 450, true);
      w.flush();
    }
    assertThat(out.chunks).as("header+flush 1, flush 2, end").hasSize(3);
    return out.chunks;
  }

  private Future<TraceEvent> nextAsync(NetTraceReader r) {
    return executor.submit(r::next);
  }

  private static long timestampWithin(Future<TraceEvent> f) throws Exception {
    return f.get(10, TimeUnit.SECONDS).timestamp();
  }

  @Test
  void liveReturnsEachBlockAsSoonAsItIsCompleteInTimestampOrder() throws Exception {
    List<byte[]> chunks = twoFlushes();
    ChunkFeed feed = new ChunkFeed();
    feed.release(chunks.get(0));
    try (NetTraceReader r = executor.submit(() -> NetTraceReader.openLive(feed, false)).get()) {
      // Only flush 1 is available: all of it comes out, merged by timestamp, with no later event.
      List<Long> first = new ArrayList<>();
      for (int i = 0; i < 5; i++) {
        first.add(timestampWithin(nextAsync(r)));
      }
      assertThat(first).containsExactly(100L, 200L, 300L, 400L, 500L);

      // Nothing more until the next flush arrives.
      Future<TraceEvent> waiting = nextAsync(r);
      assertBlocked(waiting);
      feed.release(chunks.get(1));
      // The straggler of flush 2 is older than events already delivered: the price of live mode.
      assertThat(timestampWithin(waiting)).isEqualTo(250L);
      assertThat(timestampWithin(nextAsync(r))).isEqualTo(450L);

      feed.release(chunks.get(2));
      feed.end();
      assertThat(nextAsync(r).get(10, TimeUnit.SECONDS)).isNull();
      assertThat(r.droppedEvents()).isZero();
    }
  }

  @Test
  void defaultModeHoldsEventsBackUntilALaterEventShowsNothingOlderIsComing() throws Exception {
    List<byte[]> chunks = twoFlushes();
    ChunkFeed feed = new ChunkFeed();
    feed.release(chunks.get(0));
    try (NetTraceReader r = executor.submit(() -> NetTraceReader.open(feed, false)).get()) {
      // 100 and 200 are sorted heads; 300..500 wait, since an older event may still come.
      assertThat(timestampWithin(nextAsync(r))).isEqualTo(100L);
      assertThat(timestampWithin(nextAsync(r))).isEqualTo(200L);
      Future<TraceEvent> waiting = nextAsync(r);
      assertBlocked(waiting);

      // Flush 2's sorted events release what is older than them, in global order, the straggler
      // first; 500 still waits, now for the final sequence point.
      feed.release(chunks.get(1));
      assertThat(timestampWithin(waiting)).isEqualTo(250L);
      List<Long> rest = new ArrayList<>();
      for (int i = 0; i < 3; i++) {
        rest.add(timestampWithin(nextAsync(r)));
      }
      assertThat(rest).containsExactly(300L, 400L, 450L);
      Future<TraceEvent> last = nextAsync(r);
      assertBlocked(last);
      feed.release(chunks.get(2));
      feed.end();
      assertThat(timestampWithin(last)).isEqualTo(500L);
      assertThat(nextAsync(r).get(10, TimeUnit.SECONDS)).isNull();
    }
  }

  @Test
  void liveOrdersABlockByTimestampEvenWithoutSortedFlags() {
    FlushRecorder out = new FlushRecorder();
    try (NetTraceWriter w = NetTraceWriter.create(out, SyntheticTraceTest.HEADER)) {
      event(w, 1, 1, 30, false);
      event(w, 2, 1, 50, false);
      event(w, 1, 2, 10, false);
      event(w, 2, 2, 40, false);
      event(w, 1, 3, 20, true);
      event(w, 2, 3, 50, false);
      w.flush();
    }
    byte[] all = out.toByteArray();
    List<Long> ts = new ArrayList<>();
    List<Long> threads = new ArrayList<>();
    try (NetTraceReader r = NetTraceReader.openLive(new ByteArrayInputStream(all), false)) {
      TraceEvent e;
      while ((e = r.next()) != null) {
        ts.add(e.timestamp());
        threads.add(e.captureThreadId());
      }
    }
    assertThat(ts).containsExactly(10L, 20L, 30L, 40L, 50L, 50L);
    // A tie goes to the event that came first in the file.
    assertThat(threads).containsExactly(2L, 3L, 1L, 2L, 1L, 3L);
  }

  @Test
  void liveAndDefaultAgreeOnAWholeTraceReadAtOnce() {
    byte[] data = SyntheticTraceTest.synthesise();
    List<Long> live = new ArrayList<>();
    try (NetTraceReader r = NetTraceReader.openLive(new ByteArrayInputStream(data), false)) {
      TraceEvent e;
      while ((e = r.next()) != null) {
        live.add(e.timestamp());
      }
      assertThat(r.droppedEvents()).isEqualTo(1);
    }
    List<Long> global = new ArrayList<>();
    for (TraceEvent e : SyntheticTraceTest.readAll(data)) {
      global.add(e.timestamp());
    }
    // That trace's blocks each hold all events of their sequence-point interval.
    assertThat(live).isEqualTo(global);
  }

  private static void assertBlocked(Future<TraceEvent> f) throws Exception {
    try {
      TraceEvent e = f.get(300, TimeUnit.MILLISECONDS);
      throw new AssertionError("expected next() to wait for more input, got " + e);
    } catch (TimeoutException expected) {
      // still waiting for the stream
    }
  }
}
