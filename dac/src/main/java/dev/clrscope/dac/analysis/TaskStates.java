package dev.clrscope.dac.analysis;

import java.util.ArrayList;
import java.util.List;

/**
 * A task's {@code m_stateFlags} in words (the {@code taskstate} command): its status as {@code
 * Task.Status} derives it, and every flag set. The values are the runtime's (Task.cs).
 */
public final class TaskStates {
  private TaskStates() {}

  private static final int STARTED = 0x10000;
  private static final int DELEGATE_INVOKED = 0x20000;
  private static final int FAULTED = 0x200000;
  private static final int CANCELED = 0x400000;
  private static final int WAITING_ON_CHILDREN = 0x800000;
  private static final int RAN_TO_COMPLETION = 0x1000000;
  private static final int WAITING_FOR_ACTIVATION = 0x2000000;
  private static final int TASK_SCHEDULED_WAS_FIRED = 0x40000000;

  private static final Object[][] FLAGS = {
    {0x1, "PreferFairness"},
    {0x2, "LongRunning"},
    {0x4, "AttachedToParent"},
    {0x8, "DenyChildAttach"},
    {0x10, "HideScheduler"},
    {0x40, "RunContinuationsAsynchronously"},
    {0x200, "ContinuationTask"},
    {0x400, "PromiseTask"},
    {0x800, "HiddenState"},
    {0x1000, "LazyCancellation"},
    {0x2000, "QueuedByRuntime"},
    {0x4000, "DoNotDispose"},
    {STARTED, "Started"},
    {DELEGATE_INVOKED, "DelegateInvoked"},
    {0x40000, "Disposed"},
    {0x80000, "ExceptionObservedByParent"},
    {0x100000, "CancellationAcknowledged"},
    {FAULTED, "Faulted"},
    {CANCELED, "Canceled"},
    {WAITING_ON_CHILDREN, "WaitingOnChildren"},
    {RAN_TO_COMPLETION, "RanToCompletion"},
    {WAITING_FOR_ACTIVATION, "WaitingForActivation"},
    {0x4000000, "CompletionReserved"},
    {0x10000000, "WaitCompletionNotification"},
    {0x20000000, "ExecutionContextIsNull"},
    {TASK_SCHEDULED_WAS_FIRED, "TaskScheduledWasFired"},
  };

  /** {@code Task.Status}: Created, WaitingForActivation, WaitingToRun, Running... */
  public static String status(int flags) {
    if ((flags & FAULTED) != 0) {
      return "Faulted";
    }
    if ((flags & CANCELED) != 0) {
      return "Canceled";
    }
    if ((flags & RAN_TO_COMPLETION) != 0) {
      return "RanToCompletion";
    }
    if ((flags & WAITING_ON_CHILDREN) != 0) {
      return "WaitingForChildrenToComplete";
    }
    if ((flags & DELEGATE_INVOKED) != 0) {
      return "Running";
    }
    if ((flags & STARTED) != 0) {
      return "WaitingToRun";
    }
    if ((flags & WAITING_FOR_ACTIVATION) != 0) {
      return "WaitingForActivation";
    }
    return "Created";
  }

  /** The names of the flags set, lowest first; unknown bits as hex. */
  public static List<String> flags(int flags) {
    List<String> out = new ArrayList<>();
    int known = 0;
    for (Object[] f : FLAGS) {
      int bit = (Integer) f[0];
      known |= bit;
      if ((flags & bit) != 0) {
        out.add((String) f[1]);
      }
    }
    if ((flags & ~known) != 0) {
      out.add(String.format("0x%x", flags & ~known));
    }
    return out;
  }
}
