package dev.clrscope.dac;

import dev.clrscope.dac.TargetException.Problem;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The one thread that calls into the DAC and, for a live target, makes the ptrace calls (a tracer
 * is a thread, not a process). Callers on any thread hand it work with {@link #call} and wait for
 * the result; work it is already doing calls back inline, so a visitor running on it may use the
 * model freely.
 *
 * <p>Long loops (the heap walk) poll {@link #checkStop}, so a shutdown can stop them and have this
 * thread release the target.
 */
final class Owner {
  private final Thread thread;
  private final BlockingQueue<Runnable> work = new LinkedBlockingQueue<>();
  private volatile boolean stopRequested;

  /** A user's Ctrl+C at analyze's prompt: the work in progress ends, the target stays open. */
  private volatile boolean cancelRequested;

  private volatile boolean closed;

  Owner(String name) {
    thread = new Thread(this::loop, name);
    // A daemon, so a caller that never closes does not keep the JVM alive; a live target is
    // released by the shutdown hook, which daemon threads outlive.
    thread.setDaemon(true);
    thread.start();
  }

  private void loop() {
    while (true) {
      Runnable r;
      try {
        r = work.take();
      } catch (InterruptedException e) {
        // Only close() ends the loop: a live target must never be left behind.
        continue;
      }
      if (r == END) {
        return;
      }
      r.run();
    }
  }

  /** The end of the work: the loop returns when it takes this. */
  private static final class End implements Runnable {
    @Override
    public void run() {}
  }

  private static final Runnable END = new End();

  /** Whether the calling thread is the owner. */
  boolean isOwner() {
    return Thread.currentThread() == thread;
  }

  /** Runs {@code task} on the owner thread and returns its result; rethrows what it threw. */
  <T> T call(Callable<T> task) {
    if (isOwner()) {
      try {
        return task.call();
      } catch (RuntimeException | Error e) {
        throw e;
      } catch (Exception e) {
        throw new IllegalStateException(e);
      }
    }
    if (closed) {
      throw new IllegalStateException("the target is closed");
    }
    CompletableFuture<T> result = new CompletableFuture<>();
    work.add(
        () -> {
          try {
            result.complete(task.call());
          } catch (Throwable t) {
            result.completeExceptionally(t);
          }
        });
    try {
      return result.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new TargetException(Problem.INTERRUPTED, "interrupted while the target was read", e);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      if (cause instanceof Error err) {
        throw err;
      }
      throw new IllegalStateException(cause);
    }
  }

  /** Runs {@code task} on the owner thread. */
  void run(Runnable task) {
    call(
        () -> {
          task.run();
          return null;
        });
  }

  /**
   * Asks long work to stop ({@link #checkStop} throws from then on), runs {@code task} after the
   * work in progress, and waits for it at most {@code timeoutMillis}.
   *
   * @return whether {@code task} ran in time
   */
  boolean stopAndRun(Runnable task, long timeoutMillis) {
    stopRequested = true;
    if (isOwner()) {
      task.run();
      return true;
    }
    if (closed) {
      return false;
    }
    CompletableFuture<Void> done = new CompletableFuture<>();
    work.add(
        () -> {
          try {
            task.run();
          } finally {
            done.complete(null);
          }
        });
    try {
      done.get(timeoutMillis, TimeUnit.MILLISECONDS);
      return true;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    } catch (ExecutionException | TimeoutException e) {
      return false;
    }
  }

  /**
   * Throws {@link Problem#INTERRUPTED} once a stop was asked for, or once after a {@link #cancel}.
   */
  void checkStop() {
    if (stopRequested) {
      throw new TargetException(Problem.INTERRUPTED, "stopped: the target is being released");
    }
    if (cancelRequested) {
      cancelRequested = false;
      throw new TargetException(Problem.INTERRUPTED, "interrupted (Ctrl+C)");
    }
  }

  /** Asks the work in progress to end at its next check; from any thread. */
  void cancel() {
    cancelRequested = true;
  }

  /** Forgets a cancel that no check met (it came after the work it was meant for). */
  void clearCancel() {
    cancelRequested = false;
  }

  /** Ends the thread after the work queued so far. */
  void close() {
    if (closed) {
      return;
    }
    closed = true;
    work.add(END);
    if (!isOwner()) {
      try {
        thread.join(10_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }
}
