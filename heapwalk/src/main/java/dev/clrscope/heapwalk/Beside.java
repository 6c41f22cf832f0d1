package dev.clrscope.heapwalk;

import java.util.function.Supplier;

/**
 * What a piece of work makes, made on a thread of its own beside the caller's (or at once, on the
 * caller's): {@link #get} waits for it and throws what it threw. For a graph's passes that read the
 * same arrays and write their own, on the core a heap's analysis otherwise leaves idle.
 */
public final class Beside<T> {
  private final Supplier<T> work;
  private Thread thread;
  private T result;
  private Throwable failure;

  private Beside(Supplier<T> work) {
    this.work = work;
  }

  /**
   * Starts {@code work}.
   *
   * @param name its thread's name
   * @param onItsOwn whether on a thread of its own, or at once on this one
   */
  public static <T> Beside<T> run(String name, boolean onItsOwn, Supplier<T> work) {
    Beside<T> b = new Beside<>(work);
    if (onItsOwn) {
      b.thread = new Thread(b::make, name);
      b.thread.setDaemon(true);
      b.thread.start();
    } else {
      b.make();
    }
    return b;
  }

  private void make() {
    try {
      result = work.get();
    } catch (RuntimeException | Error e) { // an OutOfMemoryError there is the caller's to throw
      failure = e;
    }
  }

  /** What the work made, once it is done; what it threw is thrown here. */
  public T get() {
    if (thread != null) {
      boolean interrupted = false;
      while (true) {
        try {
          thread.join();
          break;
        } catch (InterruptedException e) {
          // The work cannot be left half done: the caller is told once it is over.
          interrupted = true;
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
    }
    if (failure instanceof RuntimeException r) {
      throw r;
    }
    if (failure instanceof Error e) {
      throw e;
    }
    return result;
  }
}
