package dev.clrscope.dac;

/**
 * The types a heap walk on a second thread asks the owner thread for, which alone may call the DAC:
 * the owner answers between the objects of its own walk ({@link #serve}), and once that is done
 * waits answering ({@link #serveUntil}). A type is handed over with its GC descriptor read, so the
 * second walk only reads what the owner wrote before the hand-over. One request at a time; the
 * asking thread spins briefly before it sleeps, since the owner answers within an object's time
 * while it walks and a sleeping thread's wake-up can take a millisecond.
 */
final class TypeRequests {
  private final ClrReader reader;
  private final Object lock = new Object();

  /** Whether a request waits: read by the owner at every object, so volatile and nothing more. */
  private volatile boolean asked;

  private volatile boolean answered;
  private long wanted;
  private ClrType answer;
  private RuntimeException failure;

  /** Set once either side has ended or failed: the other stops at its next check. */
  private volatile boolean closed;

  TypeRequests(ClrReader reader) {
    this.reader = reader;
  }

  /** On the second walk's thread: the type of method table {@code mt}, or null as the reader's. */
  ClrType typeOrNull(long mt) {
    synchronized (lock) {
      wanted = mt;
      answered = false;
      asked = true;
      lock.notifyAll();
    }
    for (int spins = 0; !answered && !closed && spins < 20_000; spins++) {
      Thread.onSpinWait();
    }
    synchronized (lock) {
      boolean interrupted = false;
      while (!answered && !closed) {
        try {
          lock.wait(10);
        } catch (InterruptedException e) {
          interrupted = true;
        }
      }
      if (interrupted) {
        Thread.currentThread().interrupt();
      }
      if (!answered) {
        throw stopped();
      }
      if (failure != null) {
        throw failure;
      }
      return answer;
    }
  }

  /** On the owner thread, between its objects: answers the request that waits, if one does. */
  void serve() {
    if (asked) {
      answer();
    }
    if (closed) {
      throw stopped();
    }
  }

  private void answer() {
    synchronized (lock) {
      if (!asked) {
        return;
      }
      try {
        ClrType t = reader.typeOrNull(wanted);
        if (t != null) {
          reader.gcDescOf(t);
        }
        answer = t;
      } catch (RuntimeException e) {
        failure = e;
      }
      asked = false;
      answered = true;
      lock.notifyAll();
    }
  }

  /** Says the second walk has ended, whichever way: {@link #serveUntilEnded} returns. */
  void ended() {
    ended = true;
    synchronized (lock) {
      lock.notifyAll();
    }
  }

  private volatile boolean ended;

  /** On the owner thread: answers requests until the second walk has ended. */
  void serveUntilEnded() {
    while (!ended) {
      synchronized (lock) {
        if (!asked && !ended) {
          try {
            lock.wait(1);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
            throw new TargetException(
                TargetException.Problem.INTERRUPTED, "interrupted while the heap was walked", e);
          }
        }
      }
      if (asked) {
        answer();
      }
    }
  }

  /** Ends the requests: whoever waits or checks next stops. From either side. */
  void close() {
    closed = true;
    synchronized (lock) {
      lock.notifyAll();
    }
  }

  /** On the second walk's thread: throws once the requests are closed. */
  void checkOpen() {
    if (closed) {
      throw stopped();
    }
  }

  private static OtherHalfStopped stopped() {
    return new OtherHalfStopped();
  }

  /**
   * Thrown to one half of a walk when the other ended in failure: never shown, the other half's
   * failure is.
   */
  static final class OtherHalfStopped extends RuntimeException {
    private static final long serialVersionUID = 1L;

    OtherHalfStopped() {
      super("the other half of the heap walk failed", null, false, false);
    }
  }
}
