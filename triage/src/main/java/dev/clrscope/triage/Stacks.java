package dev.clrscope.triage;

import dev.clrscope.dac.StackFrame;
import dev.clrscope.symbols.Frame;
import dev.clrscope.triage.TriageTarget.FrameView;
import dev.clrscope.triage.TriageTarget.ThreadView;
import java.util.ArrayList;
import java.util.List;

/**
 * What a thread's stack says it is doing: blocked entering a lock, waiting for a task, waiting on
 * something else, a pool worker busy or idle; and the user frame that blocks (the first frame, from
 * the innermost, outside the framework's namespaces).
 */
final class Stacks {
  private Stacks() {}

  /** What a blocked thread waits for. */
  enum Wait {
    /** Entering a Monitor or a System.Threading.Lock. */
    LOCK,
    /** A task's completion: Task.Wait, .Result, GetAwaiter().GetResult(). */
    TASK,
    /** Anything else: an event, a semaphore, Monitor.Wait, Sleep, Join. */
    OTHER
  }

  private static final List<String> LOCK_ENTER =
      List.of(
          "System.Threading.Monitor.Enter",
          "System.Threading.Monitor.ReliableEnter",
          "System.Threading.Monitor.TryEnter",
          "System.Threading.Lock.Enter",
          "System.Threading.Lock.TryEnter");

  private static final List<String> TASK_WAIT =
      List.of(
          "System.Threading.Tasks.Task.Wait",
          "System.Threading.Tasks.Task.InternalWait",
          "System.Threading.Tasks.Task.SpinThenBlockingWait",
          "System.Threading.Tasks.Task`1.GetResultCore",
          "System.Threading.Tasks.Task`1.get_Result",
          "System.Threading.Tasks.ValueTask",
          "System.Runtime.CompilerServices.TaskAwaiter",
          "System.Runtime.CompilerServices.ConfiguredTaskAwaitable",
          "System.Runtime.CompilerServices.ValueTaskAwaiter",
          "System.Runtime.CompilerServices.ConfiguredValueTaskAwaitable");

  private static final List<String> OTHER_WAIT =
      List.of(
          "System.Threading.Monitor.Wait",
          "System.Threading.WaitHandle.Wait",
          "System.Threading.Thread.Sleep",
          "System.Threading.Thread.Join",
          "System.Threading.ManualResetEventSlim.Wait",
          "System.Threading.SemaphoreSlim.Wait",
          "System.Threading.CountdownEvent.Wait",
          "System.Threading.Barrier.SignalAndWait",
          "System.Threading.ReaderWriterLockSlim.",
          "System.Threading.LowLevelLifoSemaphore.",
          "System.Threading.LowLevelMonitor.",
          "System.Threading.WaitSubsystem.");

  private static final List<String> FRAMEWORK =
      List.of("System.", "Microsoft.", "Interop", "Internal.", "[");

  static final String WORKER_START =
      "System.Threading.PortableThreadPool+WorkerThread.WorkerThreadStart";
  static final String DISPATCH = "System.Threading.ThreadPoolWorkQueue.Dispatch";

  /**
   * How a blocked thread blocks.
   *
   * @param kind what it waits for
   * @param lockType for {@link Wait#LOCK}: whether it enters a System.Threading.Lock (else a
   *     Monitor)
   * @param userFrame the index of the first frame outside the framework, from the innermost; -1
   *     when every frame is the framework's
   * @param chainEnd the index of the last framework frame before the user frame
   */
  record Blocking(Wait kind, boolean lockType, int userFrame, int chainEnd) {
    /**
     * The frame that blocks, as evidence names it: the user frame, else the outermost waiting one.
     */
    Frame frame(List<FrameView> frames) {
      return frames.get(userFrame >= 0 ? userFrame : chainEnd).frame();
    }
  }

  /** How a thread blocks, or null when its stack shows no wait. */
  static Blocking blocking(List<FrameView> frames) {
    boolean task = false;
    boolean lock = false;
    boolean lockType = false;
    boolean other = false;
    int i = 0;
    int last = -1;
    for (; i < frames.size(); i++) {
      FrameView f = frames.get(i);
      if (f.runtime()) {
        continue;
      }
      String m = f.method();
      if (!isFramework(m)) {
        break;
      }
      last = i;
      if (startsWithAny(m, TASK_WAIT)) {
        task = true;
      } else if (startsWithAny(m, LOCK_ENTER)) {
        lock = true;
        lockType |= m.startsWith("System.Threading.Lock.");
      } else if (startsWithAny(m, OTHER_WAIT)) {
        other = true;
      }
    }
    if (!task && !lock && !other) {
      return null;
    }
    Wait kind = task ? Wait.TASK : lock ? Wait.LOCK : Wait.OTHER;
    return new Blocking(kind, lockType, i < frames.size() ? i : -1, Math.max(last, 0));
  }

  /** Whether a method belongs to the framework or the runtime (not the app's own code). */
  static boolean isFramework(String method) {
    return startsWithAny(method, FRAMEWORK);
  }

  private static boolean startsWithAny(String s, List<String> prefixes) {
    for (String p : prefixes) {
      if (s.startsWith(p)) {
        return true;
      }
    }
    return false;
  }

  /** Whether the thread is a thread-pool worker (not the gate or timer thread). */
  static boolean isPoolWorker(ThreadView t) {
    return has(t, WORKER_START);
  }

  /** Whether a pool worker runs a work item (else it waits for one). */
  static boolean isBusyWorker(ThreadView t) {
    return has(t, DISPATCH);
  }

  /** Whether a thread's innermost frames are a call into native code (a blocking read, say). */
  static boolean inNativeCall(ThreadView t) {
    for (FrameView f : t.frames()) {
      if (f.runtime()) {
        continue;
      }
      return f.method().startsWith("Interop");
    }
    return false;
  }

  /** Whether any frame's method starts with {@code prefix}. */
  static boolean has(ThreadView t, String prefix) {
    for (FrameView f : t.frames()) {
      if (f.method().startsWith(prefix)) {
        return true;
      }
    }
    return false;
  }

  /** The frames evidence shows: managed methods, innermost first, the runtime's frames left out. */
  static List<Frame> shown(List<FrameView> frames) {
    List<Frame> out = new ArrayList<>(frames.size());
    for (FrameView f : frames) {
      if (!f.runtime()) {
        out.add(f.frame());
      }
    }
    return out;
  }

  /** A thread as evidence. */
  static Evidence.ThreadEntry entry(ThreadView t, String role) {
    return new Evidence.ThreadEntry(t.osId(), t.managedId(), t.name(), role, shown(t.frames()));
  }

  /** {@code 4312 (transfer-in)}, or the id alone. */
  static String label(ThreadView t) {
    return t.name() == null ? Integer.toString(t.osId()) : t.osId() + " (" + t.name() + ")";
  }

  /**
   * A frame's method as evidence names it: without its parameters and without the generic
   * instantiation the runtime adds ({@code Task`1[[System.__Canon, ...]].GetResultCore} is {@code
   * Task`1.GetResultCore}); {@code [native 0x...]} for code no method holds.
   */
  static String simpleName(StackFrame f) {
    String name = f.methodName();
    if (name == null) {
      return "[native 0x" + Long.toHexString(f.ip()) + "]";
    }
    return withoutInstantiation(name);
  }

  /** {@code A`1[[X, Y]].M} as {@code A`1.M}: the {@code [[...]]} parts taken out. */
  static String withoutInstantiation(String name) {
    if (name.indexOf("[[") < 0) {
      return name;
    }
    StringBuilder sb = new StringBuilder(name.length());
    int depth = 0;
    for (int i = 0; i < name.length(); i++) {
      char c = name.charAt(i);
      if (c == '[' && (depth > 0 || i + 1 < name.length() && name.charAt(i + 1) == '[')) {
        depth++;
      } else if (c == ']' && depth > 0) {
        depth--;
      } else if (depth == 0) {
        sb.append(c);
      }
    }
    return sb.toString();
  }

  /**
   * A method's name without its parameter list: {@code App.C.M(System.Object)} is {@code App.C.M}.
   */
  static String withoutParameters(String method) {
    if (method == null) {
      return null;
    }
    int paren = method.indexOf('(');
    return paren < 0 ? method : method.substring(0, paren);
  }
}
