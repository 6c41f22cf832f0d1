package dev.clrscope.heapwalk;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * An exact walk's batches into its builder, built on a thread of their own where there are two
 * cores: the walk reads the heap and each object's references on one while this one puts them into
 * the builder's columns, its index of objects, and resolves the references to objects already
 * indexed, on the other. {@link #BATCHES} batches go round (a few megabytes), so the walk waits
 * when the builder is that far behind. On one core the batches are built as they are handed.
 *
 * <pre>
 *   WalkFeed feed = builder.feed();
 *   WalkBatch b = feed.first();
 *   ... fill b; when full: b = feed.hand(b); ...
 *   feed.finish(b);            // the rest, and wait for the builder
 * </pre>
 */
public final class WalkFeed implements AutoCloseable {
  private static final int BATCHES = 4;

  private static final WalkBatch END = new WalkBatch();

  private final HeapSnapshotBuilder builder;
  private final BlockingQueue<WalkBatch> filled = new ArrayBlockingQueue<>(BATCHES);
  private final BlockingQueue<WalkBatch> empty = new ArrayBlockingQueue<>(BATCHES);
  private final Thread thread;
  private volatile boolean closed;
  private volatile Throwable failure;
  private WalkBatch single;

  WalkFeed(HeapSnapshotBuilder builder, boolean ahead) {
    this.builder = builder;
    if (!ahead) {
      thread = null;
      single = new WalkBatch();
      return;
    }
    for (int i = 0; i < BATCHES; i++) {
      empty.add(new WalkBatch());
    }
    thread =
        new Thread(
            () -> {
              try {
                for (WalkBatch b; (b = filled.take()) != END; ) {
                  builder.accept(b);
                  b.clear();
                  empty.put(b);
                }
              } catch (InterruptedException e) {
                // Closed.
              } catch (RuntimeException | Error e) {
                failure = e;
                closed = true;
              }
            },
            "clrscope-heap-builder");
    thread.setDaemon(true);
    thread.start();
  }

  /** The batch to fill first. */
  public WalkBatch first() {
    return thread == null ? single : take(empty);
  }

  /** Hands a filled batch to the builder and returns an empty one to fill next. */
  public WalkBatch hand(WalkBatch batch) {
    if (thread == null) {
      builder.accept(batch);
      batch.clear();
      return batch;
    }
    put(batch);
    return take(empty);
  }

  /**
   * Hands the last batch and waits until the builder has taken everything; rethrows what building
   * threw.
   */
  public void finish(WalkBatch last) {
    if (thread == null) {
      builder.accept(last);
      last.clear();
      return;
    }
    put(last);
    put(END);
    boolean interrupted = false;
    while (true) {
      try {
        thread.join();
        break;
      } catch (InterruptedException e) {
        interrupted = true;
      }
    }
    if (interrupted) {
      Thread.currentThread().interrupt();
    }
    closed = true;
    rethrow();
  }

  private void rethrow() {
    Throwable f = failure;
    if (f instanceof RuntimeException e) {
      throw e;
    }
    if (f instanceof Error e) {
      throw e;
    }
  }

  private void put(WalkBatch b) {
    waitFor(() -> filled.offer(b, 100, TimeUnit.MILLISECONDS) ? b : null);
  }

  private WalkBatch take(BlockingQueue<WalkBatch> from) {
    return waitFor(() -> from.poll(100, TimeUnit.MILLISECONDS));
  }

  /** A step that waits a while: its result, or null when it timed out. */
  private interface Step {
    WalkBatch attempt() throws InterruptedException;
  }

  /** Repeats {@code step} until it succeeds, or the builder has stopped (failed or closed). */
  private WalkBatch waitFor(Step step) {
    try {
      while (true) {
        WalkBatch b = step.attempt();
        if (b != null) {
          return b;
        }
        if (closed) {
          rethrow();
          throw new IllegalStateException("the heap's builder was stopped");
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while the heap was built", e);
    }
  }

  /** Stops the building thread, whatever it was doing (the walk failed or was given up). */
  @Override
  public void close() {
    closed = true;
    if (thread != null) {
      thread.interrupt();
    }
  }
}
