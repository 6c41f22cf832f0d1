package dev.clrscope.triage;

import dev.clrscope.dac.analysis.ThreadPoolQueues;
import dev.clrscope.symbols.Frame;
import dev.clrscope.triage.TriageTarget.PoolCounts;
import dev.clrscope.triage.TriageTarget.ThreadView;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Thread-pool starvation: work items wait in the pool's queues while no worker is free and every
 * busy one is blocked (in a wait or a call into native code). With the queue's length by callback,
 * the workers against the pool's limits, and where the workers block.
 */
final class ThreadPoolStarvation {
  private ThreadPoolStarvation() {}

  static void run(TriageTarget target, Results out) {
    List<ThreadView> workers = new ArrayList<>();
    List<ThreadView> busy = new ArrayList<>();
    Map<Frame, List<ThreadView>> blockedAt = new LinkedHashMap<>();
    int blocked = 0;
    for (ThreadView t : target.threads()) {
      if (!Stacks.isPoolWorker(t)) {
        continue;
      }
      workers.add(t);
      if (!Stacks.isBusyWorker(t)) {
        continue;
      }
      busy.add(t);
      Stacks.Blocking b = Stacks.blocking(t.frames());
      if (b != null || Stacks.inNativeCall(t)) {
        blocked++;
        Frame at = b != null ? b.frame(t.frames()) : Stacks.shown(t.frames()).get(0);
        blockedAt.computeIfAbsent(at, k -> new ArrayList<>()).add(t);
      }
    }
    List<ThreadPoolQueues.WorkItem> queue = target.threadPoolQueue();
    PoolCounts counts = target.threadPool();
    String limits =
        counts == null
            ? ""
            : " (minimum " + counts.minThreads() + ", maximum " + counts.maxThreads() + ")";
    out.checked(
        "thread pool",
        Words.count(workers.size(), "worker", "workers")
            + limits
            + ", "
            + busy.size()
            + " busy, "
            + blocked
            + " blocked; "
            + Words.count(queue.size(), "work item", "work items")
            + " queued");
    if (queue.isEmpty() || busy.isEmpty() || busy.size() < workers.size()) {
      return;
    }
    boolean starved = blocked == busy.size();
    Evidence.Builder e = Evidence.builder();
    e.fact("queued work items", (long) queue.size());
    Map<String, Long> byCallback = new LinkedHashMap<>();
    for (ThreadPoolQueues.WorkItem w : queue) {
      String what = w.callback() != null ? Stacks.withoutParameters(w.callback()) : w.type();
      byCallback.merge(what, 1L, Long::sum);
    }
    byCallback.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .limit(10)
        .forEach(c -> e.fact("queued: " + c.getKey(), c.getValue()));
    e.fact("workers", (long) workers.size());
    if (counts != null) {
      e.fact("minimum workers", (long) counts.minThreads());
      e.fact("maximum workers", (long) counts.maxThreads());
    }
    e.fact("blocked workers", (long) blocked);
    for (Map.Entry<Frame, List<ThreadView>> at : blockedAt.entrySet()) {
      for (ThreadView t : at.getValue()) {
        e.thread(Stacks.entry(t, "blocked in " + at.getKey().text()));
      }
    }
    String where =
        blockedAt.size() == 1
            ? ", in " + blockedAt.keySet().iterator().next().text()
            : " (at " + Words.count(blockedAt.size(), "place", "places") + ")";
    String title =
        starved
            ? "The thread pool is starved: "
                + Words.count(queue.size(), "work item waits", "work items wait")
                + " and all "
                + Words.count(workers.size(), "worker", "workers")
                + (counts == null ? "" : " (at most " + counts.maxThreads() + ")")
                + " are blocked"
                + where
                + "."
            : "The thread pool is saturated: "
                + Words.count(queue.size(), "work item waits", "work items wait")
                + " and all "
                + Words.count(workers.size(), "worker is", "workers are")
                + " busy, "
                + blocked
                + " of them blocked.";
    out.add(
        new Finding(
            starved ? Finding.Kind.STARVATION : Finding.Kind.POOL_BUSY,
            starved ? Severity.CRITICAL : Severity.WARNING,
            title,
            e.build(),
            List.of(Next.analyze(target, "threadpoolqueue"), Next.analyze(target, "pstacks"))));
  }
}
