package dev.clrscope.dac;

import java.util.ArrayList;
import java.util.List;

/**
 * A thread the runtime knows (SOS's {@code threads}).
 *
 * @param address the runtime's Thread object (SOS's ThreadOBJ)
 * @param osId the OS thread id (0 for a thread not started or dead)
 * @param managedId the managed thread id ({@code Environment.CurrentManagedThreadId})
 * @param state the runtime's thread state flags ({@code TS_*})
 * @param cooperative whether it runs managed code that the GC must wait for (SOS's GC mode
 *     "Cooperative"), else "Preemptive"
 * @param lockCount monitors it holds
 * @param currentException the exception it is throwing or last threw (the object), or 0
 * @param finalizer whether it is the finalizer thread
 * @param allocContextPtr its allocation context's pointer
 * @param allocContextLimit its allocation context's limit
 */
public record ClrThread(
    long address,
    int osId,
    int managedId,
    int state,
    boolean cooperative,
    int lockCount,
    long currentException,
    boolean finalizer,
    long allocContextPtr,
    long allocContextLimit) {
  private static final int BACKGROUND = 0x200;
  private static final int UNSTARTED = 0x400;
  private static final int DEAD = 0x800;
  private static final int THREADPOOL_WORKER = 0x01000000;
  private static final int COMPLETION_PORT = 0x08000000;

  public boolean isBackground() {
    return (state & BACKGROUND) != 0;
  }

  public boolean isUnstarted() {
    return (state & UNSTARTED) != 0;
  }

  public boolean isDead() {
    return (state & DEAD) != 0;
  }

  public boolean isThreadPoolWorker() {
    return (state & THREADPOOL_WORKER) != 0;
  }

  /** {@code Cooperative} or {@code Preemptive}. */
  public String gcMode() {
    return cooperative ? "Cooperative" : "Preemptive";
  }

  /** What SOS's {@code threads} prints in its "Apt"/special column: the kinds this thread is. */
  public List<String> kinds() {
    List<String> k = new ArrayList<>();
    if (finalizer) {
      k.add("Finalizer");
    }
    if (isThreadPoolWorker()) {
      k.add("Threadpool Worker");
    }
    if ((state & COMPLETION_PORT) != 0) {
      k.add("Threadpool Completion Port");
    }
    if (isBackground()) {
      k.add("Background");
    }
    if (isUnstarted()) {
      k.add("Unstarted");
    }
    if (isDead()) {
      k.add("Dead");
    }
    return k;
  }
}
