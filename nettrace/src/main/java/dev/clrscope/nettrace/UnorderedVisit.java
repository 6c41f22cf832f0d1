package dev.clrscope.nettrace;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Optional;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.function.Supplier;

/**
 * A whole trace's events visited in no order and without an object per event: for a pass that only
 * tallies ({@code trace stats}), where the ordered reader's global order and its {@link TraceEvent}
 * per event are most of the cost.
 *
 * <pre>{@code
 * UnorderedVisit<MyTally> v = UnorderedVisit.of(path, true, MyTally::new);
 * v.tally(); v.droppedEvents(); v.stopReason();
 * }</pre>
 *
 * <p>The calling thread reads the file: it frames every block and parses all but the event blocks
 * in file order ({@link TraceParser}, as the ordered reader does). Each event block of a V4/V5
 * trace goes, with the metadata that preceded it, through a bounded queue to one of two decoding
 * threads, which decode its event headers in place ({@link EventHeader#walkEventBlock}, the ordered
 * reader's walk) into a tally of that block and the block's sequence numbers per thread. The
 * calling thread adds the blocks' tallies to the total and folds their sequence numbers into the
 * drop count in file order, so the numbers are the ordered reader's: the same events, dropped
 * events and, on a corrupt block, the same stop (events of the blocks before it, none of it or
 * after it). netperf V3 and V6 traces, whose event blocks depend on the parser's state at each
 * event, are visited on the calling thread alone.
 *
 * <p>Errors as {@link NetTraceReader}'s: strict, the first problem in file order is thrown;
 * lenient, the visit stops there and {@link #stopReason()} says why. No decoding thread outlives
 * the call, whatever it ends with.
 *
 * @param <T> the tally
 */
public final class UnorderedVisit<T extends EventTally<T>> {
  /** Event blocks queued for the decoding threads at most. */
  private static final int BLOCKS_QUEUED = 8;

  private static final CountDownLatch NOTHING_TO_WAIT_FOR = new CountDownLatch(0);

  private final TraceHeader header;
  private final T tally;
  private long droppedEvents;
  private long blocksRead;
  private long completeBytes;
  private boolean reachedEnd;
  private long trailingBytes;
  private NetTraceFormatException stopReason;

  private UnorderedVisit(TraceHeader header, T tally) {
    this.header = header;
    this.tally = tally;
  }

  /**
   * Visits a file ({@link InputFile}: a regular file only); {@code lenient} as the ordered
   * reader's.
   *
   * @throws NetTraceFormatException if the header is broken, or (strict) any block is
   * @throws UncheckedIOException if the file cannot be read
   */
  public static <T extends EventTally<T>> UnorderedVisit<T> of(
      Path file, boolean lenient, Supplier<T> tallies) {
    try {
      return of(InputFile.newInputStream(file), lenient, tallies);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Visits a stream (closed at the end); on one core, without decoding threads. */
  public static <T extends EventTally<T>> UnorderedVisit<T> of(
      InputStream in, boolean lenient, Supplier<T> tallies) {
    return of(in, lenient, tallies, Runtime.getRuntime().availableProcessors() >= 2 ? 2 : 0);
  }

  /** With {@code decoders} decoding threads (0: every block decoded on the calling thread). */
  static <T extends EventTally<T>> UnorderedVisit<T> of(
      InputStream in, boolean lenient, Supplier<T> tallies, int decoders) {
    try (ByteSource source = new ByteSource(in)) {
      TraceParser parser = new TraceParser(BlockFraming.open(source), false);
      UnorderedVisit<T> visit = new UnorderedVisit<>(parser.header(), tallies.get());
      visit.completeBytes = source.position();
      Run<T> run = new Run<>(visit, parser, source, tallies, decoders);
      try {
        if (parser.handOverEventBlocks(run)) {
          run.handingOver();
        } else {
          run.inPlace();
        }
      } finally {
        run.stopDecoders();
      }
      if (visit.stopReason != null && !lenient) {
        throw visit.stopReason;
      }
      return visit;
    }
  }

  /** The trace's header. */
  public TraceHeader header() {
    return header;
  }

  /** Every event visited, in one tally. */
  public T tally() {
    return tally;
  }

  /** Events missing according to per-thread sequence numbers. */
  public long droppedEvents() {
    return droppedEvents;
  }

  /** Blocks read (all kinds), up to the one that stopped the visit. */
  public long blocksRead() {
    return blocksRead;
  }

  /**
   * Bytes from the stream's start that hold whole blocks ({@link NetTraceReader#completeBytes}).
   */
  public long completeBytes() {
    return completeBytes;
  }

  /** Whether the stream's end marker was read. */
  public boolean reachedEnd() {
    return reachedEnd;
  }

  /** Bytes after the end marker, which no trace holds. */
  public long trailingBytes() {
    return trailingBytes;
  }

  /** In lenient mode: why the visit stopped early, if it did. */
  public Optional<NetTraceFormatException> stopReason() {
    return Optional.ofNullable(stopReason);
  }

  /** One event block on its way through a decoding thread, and what came of it. */
  private static final class Job<T extends EventTally<T>> implements EventHeader.Sink {
    final T tally;
    final BlockSequences sequences;
    RawBlock block;
    IdMap<EventMetadata> metadata;

    /** Where the whole blocks end once this one is read, and the blocks read by then. */
    long end;

    long blocksRead;
    NetTraceFormatException formatError;
    Throwable failure;
    CountDownLatch done;

    Job(T tally, int format) {
      this.tally = tally;
      this.sequences = new BlockSequences(format);
    }

    void decode(int format) {
      try {
        EventHeader.walkEventBlock(block.cursor(), format, metadata, this);
      } catch (NetTraceFormatException e) {
        formatError = e;
      } catch (RuntimeException | Error e) {
        failure = e;
      }
      done.countDown();
    }

    @Override
    public void event(EventHeader h, EventMetadata declared) {
      tally.event(declared, h.threadId, h.timestamp, h.payloadSize);
      sequences.add(h.captureThreadId, h.sequence);
    }
  }

  /** Thrown through the parser when a block handed over failed before a sequence point. */
  private static final class Stopped extends RuntimeException {
    private static final long serialVersionUID = 1L;

    Stopped() {
      super(null, null, false, false);
    }
  }

  /** One visit's reading thread (the caller's) and decoding threads. */
  private static final class Run<T extends EventTally<T>> implements TraceParser.EventBlockHandler {
    private final UnorderedVisit<T> visit;
    private final TraceParser parser;
    private final ByteSource source;
    private final Supplier<T> tallies;
    private final int format;

    /** Handed over, in file order, not yet added to the total. */
    private final ArrayDeque<Job<T>> pending = new ArrayDeque<>();

    /** Added: their tallies, sequences and block arrays are reused. */
    private final ArrayDeque<Job<T>> free = new ArrayDeque<>();

    private final BlockingQueue<Job<T>> queue;
    private final Thread[] decoders;

    /** Whether the block just read was an event block, handed over. */
    private boolean handedOver;

    Run(
        UnorderedVisit<T> visit,
        TraceParser parser,
        ByteSource source,
        Supplier<T> tallies,
        int decoders) {
      this.visit = visit;
      this.parser = parser;
      this.source = source;
      this.tallies = tallies;
      this.format = parser.header().formatVersion();
      this.queue = new ArrayBlockingQueue<>(BLOCKS_QUEUED);
      this.decoders = new Thread[decoders];
    }

    /** V4/V5: event blocks decoded by the decoding threads, everything else here. */
    void handingOver() {
      for (int i = 0; i < decoders.length; i++) {
        decoders[i] = new Thread(this::decodeBlocks, "clrscope-nettrace-decoder-" + (i + 1));
        decoders[i].setDaemon(true);
        decoders[i].start();
      }
      try {
        while (visit.stopReason == null) {
          boolean more;
          handedOver = false;
          try {
            more = parser.readBlock();
          } catch (NetTraceFormatException e) {
            // A block handed over before it may have failed first: that is where reading stopped.
            addAll();
            stop(e, parser.blocksRead());
            return;
          }
          if (!more) {
            addAll();
            if (visit.stopReason == null) {
              ended();
            }
            return;
          }
          if (handedOver) {
            addDone();
          } else if (pending.isEmpty()) {
            visit.completeBytes = source.position();
            visit.blocksRead = parser.blocksRead();
          } else {
            // Another kind of block: the whole blocks end after it once the ones before are added.
            Job<T> mark = new Job<>(null, format);
            mark.done = NOTHING_TO_WAIT_FOR;
            mark.end = source.position();
            mark.blocksRead = parser.blocksRead();
            pending.addLast(mark);
          }
        }
      } catch (Stopped e) {
        // A block handed over failed; the visit stops there.
      }
    }

    /** V3, V6: every block parsed here, its events tallied a block at a time. */
    void inPlace() {
      T block = tallies.get();
      while (true) {
        ParsedBatch batch = new ParsedBatch(16);
        parser.batchInto(batch);
        boolean more;
        try {
          more = parser.readBlock();
        } catch (NetTraceFormatException e) {
          stop(e, parser.blocksRead());
          return;
        }
        for (TraceEvent e : batch.events) {
          block.event(e.metadata(), e.threadId(), e.timestamp(), e.payloadLength());
        }
        visit.tally.add(block);
        block.clear();
        visit.droppedEvents = parser.droppedEvents();
        visit.blocksRead = parser.blocksRead();
        if (!more) {
          ended();
          return;
        }
        visit.completeBytes = source.position();
      }
    }

    private void ended() {
      visit.completeBytes = source.position();
      visit.reachedEnd = true;
      visit.trailingBytes = source.skipToEnd();
      visit.droppedEvents = parser.droppedEvents();
      visit.blocksRead = parser.blocksRead();
      parser.logEnd();
    }

    /** Reading stops at {@code e}, found in the block numbered {@code blocksRead}. */
    private void stop(NetTraceFormatException e, long blocksRead) {
      if (visit.stopReason == null) {
        visit.stopReason = e;
        visit.droppedEvents = parser.droppedEvents();
        visit.blocksRead = blocksRead;
        parser.logEnd();
      }
    }

    @Override
    public byte[] nextBuffer() {
      Job<T> j = free.peekFirst();
      return j == null ? null : j.block.data();
    }

    @Override
    public void eventBlock(RawBlock block, IdMap<EventMetadata> metadata) {
      Job<T> j = free.pollFirst();
      if (j == null) {
        j = new Job<>(tallies.get(), format);
      }
      j.block = block;
      j.metadata = metadata;
      j.end = source.position();
      j.blocksRead = parser.blocksRead();
      j.formatError = null;
      j.failure = null;
      j.done = new CountDownLatch(1);
      pending.addLast(j);
      handedOver = true;
      if (decoders.length == 0) {
        j.decode(format);
        addDone();
        return;
      }
      try {
        queue.put(j);
      } catch (InterruptedException e) {
        throw interrupted();
      }
    }

    @Override
    public void beforeCheckpoint() {
      addAll();
      if (visit.stopReason != null) {
        throw new Stopped();
      }
    }

    /** Adds the blocks at the head of the file order that are decoded, without waiting. */
    private void addDone() {
      while (!pending.isEmpty() && pending.peekFirst().done.getCount() == 0) {
        add(pending.pollFirst());
      }
    }

    /** Adds every block handed over, waiting for each. */
    private void addAll() {
      while (!pending.isEmpty()) {
        Job<T> j = pending.pollFirst();
        try {
          j.done.await();
        } catch (InterruptedException e) {
          throw interrupted();
        }
        add(j);
      }
    }

    private void add(Job<T> j) {
      if (j.block == null) {
        // The end of another kind of block: whole if nothing before it failed.
        if (visit.stopReason == null) {
          visit.completeBytes = j.end;
          visit.blocksRead = j.blocksRead;
        }
        return;
      }
      if (visit.stopReason == null) {
        // A failed block's sequence numbers up to where it failed count, as the parser's would.
        parser.foldSequences(j.sequences);
        if (j.failure instanceof Error error) {
          throw error;
        }
        if (j.failure != null) {
          throw (RuntimeException) j.failure;
        }
        if (j.formatError != null) {
          stop(j.formatError, j.blocksRead);
        } else {
          visit.tally.add(j.tally);
          visit.completeBytes = j.end;
          visit.blocksRead = j.blocksRead;
        }
      }
      j.tally.clear();
      j.sequences.clear();
      j.metadata = null;
      free.addLast(j);
    }

    /** A decoding thread: blocks from the queue until interrupted ({@link #stopDecoders}). */
    private void decodeBlocks() {
      try {
        while (true) {
          queue.take().decode(format);
        }
      } catch (InterruptedException e) {
        // The visit ended: nothing more to decode.
      }
    }

    /** Ends the decoding threads and waits for them, however the visit ended. */
    void stopDecoders() {
      boolean interrupted = false;
      for (Thread t : decoders) {
        if (t != null) {
          t.interrupt();
        }
      }
      for (Thread t : decoders) {
        while (t != null && t.isAlive()) {
          try {
            t.join();
          } catch (InterruptedException e) {
            interrupted = true;
          }
        }
      }
      queue.clear();
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }

    private static UncheckedIOException interrupted() {
      Thread.currentThread().interrupt();
      return new UncheckedIOException(
          new InterruptedIOException("interrupted while reading the trace"));
    }
  }
}
