package dev.clrscope.triage;

import dev.clrscope.dac.SyncBlock;
import dev.clrscope.dac.analysis.HeapContents;
import dev.clrscope.dac.analysis.ThreadPoolQueues;
import dev.clrscope.dac.analysis.Timers;
import dev.clrscope.heapwalk.HeapSnapshot;
import dev.clrscope.symbols.Frame;
import dev.clrscope.symbols.SourceLine;
import java.util.List;
import java.util.Map;

/**
 * Everything the detectors read of a process, in one interface: each method is one read of the
 * runtime through the dac model, and {@link DacTarget} is the only class that makes them. Porting
 * triage onto another model is implementing this again.
 */
public interface TriageTarget {
  /** {@code core /path/app.core} or {@code process 1234}. */
  String describe();

  /**
   * How the next commands name the target: the core's path, or {@code -p 1234}; words a shell reads
   * as they are.
   */
  String commandTarget();

  /** Whether this is a live process (paused while it is read). */
  boolean isLive();

  /** The runtime's threads that run (started, not dead), with their stacks. */
  List<ThreadView> threads();

  /** The objects a thread's stack references, innermost frame first. */
  List<StackRoot> stackRoots(int osId);

  /** The sync blocks in use (Monitor locks that needed one). */
  List<SyncBlock> syncBlocks();

  /**
   * Who holds a {@code System.Threading.Lock}: its owner's OS thread id; null when the object is no
   * Lock or no thread holds it.
   */
  Integer lockOwner(long address);

  /** The type of the object at an address, or null when it is none. */
  String typeName(long address);

  /** The size of the object at an address (SOS's), or 0 when it is none. */
  long sizeOf(long address);

  /** The exception object at an address, with its inner ones; null when it is none. */
  ExceptionView exception(long address);

  /**
   * The thread that a fatal signal stopped, as the core says (createdump and the kernel mark it);
   * null for a live process or a core written on request.
   */
  Signalled crashSignal();

  /** Objects ready for finalization (the f-reachable queue), per type. */
  Map<String, Long> readyForFinalization();

  /** The work waiting in the thread pool's queues. */
  List<ThreadPoolQueues.WorkItem> threadPoolQueue();

  /** The thread pool's limits and counts, or null when it never started. */
  PoolCounts threadPool();

  /** Every timer of the timer queues. */
  List<Timers.TimerInfo> timers();

  /** The exact heap graph (retained sizes, dominators, paths from roots). */
  HeapSnapshot heap();

  /**
   * One walk of the heap that sets aside strings by value, collections, the large object heap's
   * space and delegates calling {@code minInvocations} methods or more (the graph's own walk, when
   * the graph is not read yet); which of them are live is asked of it afterwards, with the heap
   * graph's reachability.
   */
  HeapContents.Scan scanHeap(int minInvocations);

  /**
   * A thread as triage sees it.
   *
   * @param osId its OS id
   * @param managedId its managed id
   * @param name its {@code Thread.Name}, or null
   * @param poolThread whether the runtime marks it a thread-pool thread
   * @param finalizer whether it is the finalizer thread
   * @param currentException the exception it throws or last threw (the object), or 0
   * @param frames its stack, innermost first
   */
  record ThreadView(
      int osId,
      int managedId,
      String name,
      boolean poolThread,
      boolean finalizer,
      long currentException,
      List<FrameView> frames) {
    /** Copies the frames. */
    public ThreadView {
      frames = List.copyOf(frames);
    }
  }

  /**
   * One frame of a stack.
   *
   * @param method the method without its parameters and generic instantiation ({@code
   *     System.Threading.Tasks.Task`1.GetResultCore}), or the runtime frame's name ({@code
   *     [InlinedCallFrame]})
   * @param line its source line, or null
   * @param sp its stack pointer
   * @param runtime whether it is a transition frame of the runtime, not a managed method
   */
  record FrameView(String method, SourceLine line, long sp, boolean runtime) {
    /** As evidence shows it. */
    public Frame frame() {
      return new Frame(method, line);
    }
  }

  /**
   * A reference a thread's stack holds.
   *
   * @param object the object
   * @param frameSp the stack pointer of the frame that holds it (0 when unknown)
   * @param method that frame's method, or null
   */
  record StackRoot(long object, long frameSp, String method) {}

  /**
   * An exception with its inner ones.
   *
   * @param address the object
   * @param type its type
   * @param message its message, or null
   * @param hresult {@code 0x80131500}
   * @param frames where it was thrown through, innermost first
   * @param inner its inner exception, or null
   */
  record ExceptionView(
      long address,
      String type,
      String message,
      String hresult,
      List<Frame> frames,
      ExceptionView inner) {}

  /**
   * A thread a signal stopped.
   *
   * @param osId the thread
   * @param signal the signal's number (6 SIGABRT, 11 SIGSEGV...)
   */
  record Signalled(int osId, int signal) {}

  /**
   * The thread pool's workers.
   *
   * @param minThreads its minimum
   * @param maxThreads its maximum
   * @param existing the workers that exist (0 when not known)
   * @param blocked the workers it counts as blocked in a wait it knows (Task.Wait), or -1
   */
  record PoolCounts(int minThreads, int maxThreads, int existing, int blocked) {}
}
