package dev.clrscope.dac.analysis;

import dev.clrscope.dac.ClrObject;
import dev.clrscope.dac.ClrProcess;
import dev.clrscope.dac.TargetException;
import dev.clrscope.dac.TargetException.Problem;
import java.util.ArrayList;
import java.util.List;

/**
 * A {@code Task}'s state in words, from its {@code m_stateFlags} (the triage extensions' {@code
 * taskstate}): the status {@code Task.Status} would answer, the state flags set, and the creation
 * options in the low 16 bits.
 *
 * @param flags the raw value
 * @param status {@code Created}, {@code WaitingForActivation}, {@code WaitingToRun}, {@code
 *     Running}, {@code WaitingForChildrenToComplete}, {@code RanToCompletion}, {@code Canceled} or
 *     {@code Faulted}
 * @param states the {@code TASK_STATE_*} flags set, by name
 * @param options the creation and internal options set, by name
 */
public record TaskState(int flags, String status, List<String> states, List<String> options) {
  private static final int STARTED = 0x10000;
  private static final int DELEGATE_INVOKED = 0x20000;
  private static final int FAULTED = 0x200000;
  private static final int CANCELED = 0x400000;
  private static final int WAITING_ON_CHILDREN = 0x800000;
  private static final int RAN_TO_COMPLETION = 0x1000000;
  private static final int WAITING_FOR_ACTIVATION = 0x2000000;

  private static final Object[][] STATE_NAMES = {
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
    {0x8000000, "ThreadWasAborted"},
    {0x10000000, "WaitCompletionNotification"},
    {0x20000000, "ExecutionContextIsNull"},
    {0x40000000, "TaskScheduledWasFired"},
  };

  private static final Object[][] OPTION_NAMES = {
    {0x01, "PreferFairness"},
    {0x02, "LongRunning"},
    {0x04, "AttachedToParent"},
    {0x08, "DenyChildAttach"},
    {0x10, "HideScheduler"},
    {0x40, "RunContinuationsAsynchronously"},
    {0x200, "ContinuationTask"},
    {0x400, "PromiseTask"},
    {0x1000, "LazyCancellation"},
    {0x2000, "QueuedByRuntime"},
    {0x4000, "DoNotDispose"},
  };

  /** The state {@code flags} (an {@code m_stateFlags} value) stands for. */
  public static TaskState of(int flags) {
    List<String> states = new ArrayList<>();
    for (Object[] n : STATE_NAMES) {
      if ((flags & (int) n[0]) != 0) {
        states.add((String) n[1]);
      }
    }
    List<String> options = new ArrayList<>();
    int unnamed = flags & 0xffff;
    for (Object[] n : OPTION_NAMES) {
      if ((flags & (int) n[0]) != 0) {
        options.add((String) n[1]);
        unnamed &= ~(int) n[0];
      }
    }
    if (unnamed != 0) {
      options.add("0x" + Integer.toHexString(unnamed));
    }
    return new TaskState(flags, status(flags), List.copyOf(states), List.copyOf(options));
  }

  // As Task.Status decides it.
  private static String status(int f) {
    if ((f & FAULTED) != 0) {
      return "Faulted";
    }
    if ((f & CANCELED) != 0) {
      return "Canceled";
    }
    if ((f & RAN_TO_COMPLETION) != 0) {
      return "RanToCompletion";
    }
    if ((f & WAITING_ON_CHILDREN) != 0) {
      return "WaitingForChildrenToComplete";
    }
    if ((f & DELEGATE_INVOKED) != 0) {
      return "Running";
    }
    if ((f & STARTED) != 0) {
      return "WaitingToRun";
    }
    if ((f & WAITING_FOR_ACTIVATION) != 0) {
      return "WaitingForActivation";
    }
    return "Created";
  }

  /**
   * The state of the task at {@code address}.
   *
   * @throws TargetException {@link Problem#NOT_AN_OBJECT} when it is not a Task
   */
  public static TaskState ofTask(ClrProcess p, long address) {
    ClrObject task = p.object(address);
    if (task.type().field("m_stateFlags") == null
        || !Fields.isA(task.type(), "System.Threading.Tasks.Task")) {
      throw new TargetException(
          Problem.NOT_AN_OBJECT,
          "0x"
              + Long.toHexString(address)
              + " is not a Task: it is a "
              + task.type().name()
              + " (taskstate -v VALUE decodes a state value)");
    }
    return of(task.intField("m_stateFlags"));
  }
}
