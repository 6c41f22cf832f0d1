package dev.clrscope.triage;

import dev.clrscope.dac.analysis.Awaiters;
import dev.clrscope.symbols.Frame;
import dev.clrscope.triage.TriageTarget.StackRoot;
import dev.clrscope.triage.TriageTarget.ThreadView;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Sync over async: threads blocked until a task completes (Task.Wait, .Result,
 * GetAwaiter().GetResult()), counted by the user frame that blocks, thread-pool threads apart from
 * the others: a pool thread that waits for a task holds a worker the task may need.
 */
final class SyncOverAsync {
  private SyncOverAsync() {}

  private record Group(boolean pool, Frame frame) {}

  static void run(TriageTarget target, Results out) {
    Map<Group, List<ThreadView>> groups = new LinkedHashMap<>();
    for (ThreadView t : target.threads()) {
      Stacks.Blocking b = Stacks.blocking(t.frames());
      if (b != null && b.kind() == Stacks.Wait.TASK) {
        boolean pool = Stacks.isPoolWorker(t) || t.poolThread();
        groups.computeIfAbsent(new Group(pool, b.frame(t.frames())), k -> new ArrayList<>()).add(t);
      }
    }
    int blocked = 0;
    for (Map.Entry<Group, List<ThreadView>> g : groups.entrySet()) {
      blocked += g.getValue().size();
      out.add(finding(target, g.getKey(), g.getValue()));
    }
    out.checked(
        "sync over async",
        blocked == 0
            ? "no thread waits for a task"
            : Words.count(blocked, "thread waits", "threads wait")
                + " for tasks, at "
                + Words.count(groups.size(), "frame", "frames"));
  }

  private static Finding finding(TriageTarget target, Group g, List<ThreadView> threads) {
    Evidence.Builder e = Evidence.builder();
    String awaited = null;
    for (ThreadView t : threads) {
      long task = awaitedTask(target, t);
      String type = task == 0 ? null : target.typeName(task);
      String what = type == null ? null : Awaiters.shortName(type);
      if (awaited == null) {
        awaited = what;
      }
      e.thread(Stacks.entry(t, what == null ? "waits for a task" : "waits for " + what));
      if (task != 0) {
        e.object(
            new Evidence.ObjectEntry(task, type, target.sizeOf(task), null, "the task waited for"));
      }
    }
    String who =
        g.pool()
            ? Words.count(threads.size(), "thread-pool thread", "thread-pool threads")
            : threads.size() == 1
                ? "Thread " + Stacks.label(threads.get(0))
                : Words.count(threads.size(), "thread", "threads");
    String title =
        who
            + (threads.size() == 1 ? " blocks" : " block")
            + " waiting for "
            + (awaited == null ? "a task" : awaited)
            + " in "
            + g.frame().text()
            + (g.pool()
                ? ": sync over async, each holding a worker the pool may need to finish the task."
                : ": sync over async.");
    e.fact("threads", (long) threads.size());
    e.fact("thread pool", g.pool() ? "yes" : "no");
    e.fact("blocking frame", g.frame().text());
    if (awaited != null) {
      e.fact("awaited", awaited);
    }
    return new Finding(
        Finding.Kind.SYNC_OVER_ASYNC,
        g.pool() ? Severity.ERROR : Severity.WARNING,
        title,
        e.build(),
        List.of(Next.analyze(target, "pstacks"), Next.analyze(target, "dumpasync")));
  }

  /**
   * The task a thread waits for: among what its waiting frames (up to the user frame) reference, an
   * async method's box, else a task (not the event it waits on, a Task+SetOnInvokeMres).
   */
  private static long awaitedTask(TriageTarget target, ThreadView t) {
    Stacks.Blocking b = Stacks.blocking(t.frames());
    long boundary = b.userFrame() >= 0 ? t.frames().get(b.userFrame()).sp() : -1L;
    long task = 0;
    for (StackRoot r : target.stackRoots(t.osId())) {
      if (r.frameSp() == 0 || Long.compareUnsigned(r.frameSp(), boundary) >= 0) {
        continue;
      }
      String type = target.typeName(r.object());
      if (type == null) {
        continue;
      }
      if (type.contains("+AsyncStateMachineBox<")) {
        return r.object();
      }
      if (task == 0 && type.startsWith("System.Threading.Tasks.Task") && !type.endsWith("Mres")) {
        task = r.object();
      }
    }
    return task;
  }
}
