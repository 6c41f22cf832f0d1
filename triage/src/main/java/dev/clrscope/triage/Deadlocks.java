package dev.clrscope.triage;

import dev.clrscope.dac.SyncBlock;
import dev.clrscope.triage.TriageTarget.StackRoot;
import dev.clrscope.triage.TriageTarget.ThreadView;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Deadlocks: cycles in the wait-for graph of the threads blocked entering a Monitor or a
 * System.Threading.Lock, as SOSEX's {@code !dlk} and ClrMD 1.x's blocking objects find them. A
 * Monitor's owner is its sync block's (a contended Monitor always has one); a Lock's is its {@code
 * _owningThreadId}. What a blocked thread waits for is the lock object among the references of the
 * frames that enter it and of the user frame that calls them, whose owner is another thread.
 */
final class Deadlocks {
  private Deadlocks() {}

  /** A blocked thread's wait: the lock object, its owner, and whether it is a Lock. */
  private record Wait(long object, int owner, boolean lockType) {}

  static void run(TriageTarget target, Results out) {
    List<ThreadView> threads = target.threads();
    Map<Integer, ThreadView> byId = new HashMap<>();
    threads.forEach(t -> byId.put(t.osId(), t));
    Map<Long, SyncBlock> monitors = new HashMap<>();
    Map<Integer, List<SyncBlock>> held = new HashMap<>();
    for (SyncBlock b : target.syncBlocks()) {
      if (b.isOwned()) {
        monitors.put(b.object(), b);
        held.computeIfAbsent(b.owningOsThreadId(), k -> new ArrayList<>()).add(b);
      }
    }
    Map<Integer, Wait> waits = new LinkedHashMap<>();
    int entering = 0;
    for (ThreadView t : threads) {
      Stacks.Blocking b = Stacks.blocking(t.frames());
      if (b == null || b.kind() != Stacks.Wait.LOCK) {
        continue;
      }
      entering++;
      Wait w = waitOf(target, t, b, monitors);
      if (w != null) {
        waits.put(t.osId(), w);
      }
    }
    int cycles = 0;
    for (List<Integer> cycle : cycles(waits)) {
      cycles++;
      out.add(finding(target, cycle, waits, byId, held));
    }
    out.checked(
        "deadlocks",
        Words.count(threads.size(), "thread", "threads")
            + ", "
            + Words.count(entering, "entering a lock", "entering locks")
            + ", "
            + Words.count(monitors.size(), "Monitor held", "Monitors held")
            + (cycles == 0 ? ": no cycle" : ": " + Words.count(cycles, "cycle", "cycles")));
  }

  private static Wait waitOf(
      TriageTarget target, ThreadView t, Stacks.Blocking b, Map<Long, SyncBlock> monitors) {
    long boundary = b.userFrame() >= 0 ? t.frames().get(b.userFrame()).sp() : -1L;
    for (StackRoot r : target.stackRoots(t.osId())) {
      if (r.frameSp() != 0 && Long.compareUnsigned(r.frameSp(), boundary) > 0) {
        continue;
      }
      SyncBlock m = monitors.get(r.object());
      if (m != null) {
        if (m.owningOsThreadId() != t.osId() && m.owningOsThreadId() != 0) {
          return new Wait(r.object(), m.owningOsThreadId(), false);
        }
        continue;
      }
      if (b.lockType()) {
        Integer owner = target.lockOwner(r.object());
        if (owner != null && owner != t.osId()) {
          return new Wait(r.object(), owner, true);
        }
      }
    }
    return null;
  }

  /** Every cycle of the graph in which each thread waits for at most one other, each once. */
  static List<List<Integer>> cycles(Map<Integer, Wait> waits) {
    Map<Integer, Integer> next = new LinkedHashMap<>();
    waits.forEach((t, w) -> next.put(t, w.owner()));
    return cyclesOf(next);
  }

  /** The cycles of a functional graph (each node has at most one successor), in node order. */
  static List<List<Integer>> cyclesOf(Map<Integer, Integer> next) {
    List<List<Integer>> found = new ArrayList<>();
    Map<Integer, Integer> state = new HashMap<>(); // 1 on the current path, 2 done
    for (Integer start : next.keySet()) {
      if (state.containsKey(start)) {
        continue;
      }
      List<Integer> path = new ArrayList<>();
      Integer v = start;
      while (v != null && !state.containsKey(v)) {
        state.put(v, 1);
        path.add(v);
        v = next.get(v);
      }
      if (v != null && state.get(v) == 1) {
        found.add(new ArrayList<>(path.subList(path.indexOf(v), path.size())));
      }
      path.forEach(p -> state.put(p, 2));
    }
    return found;
  }

  private static Finding finding(
      TriageTarget target,
      List<Integer> cycle,
      Map<Integer, Wait> waits,
      Map<Integer, ThreadView> byId,
      Map<Integer, List<SyncBlock>> held) {
    Evidence.Builder e = Evidence.builder();
    List<String> labels = new ArrayList<>();
    for (int i = 0; i < cycle.size(); i++) {
      int id = cycle.get(i);
      int previous = cycle.get((i + cycle.size() - 1) % cycle.size());
      Wait w = waits.get(id);
      Wait heldHere = waits.get(previous);
      ThreadView t = byId.get(id);
      String label = t == null ? Integer.toString(id) : Stacks.label(t);
      labels.add(label);
      List<String> holds = new ArrayList<>();
      holds.add(lockText(target, heldHere));
      for (SyncBlock b : held.getOrDefault(id, List.of())) {
        if (b.object() != heldHere.object()) {
          holds.add(lockText(target, new Wait(b.object(), id, false)));
        }
      }
      String role =
          "holds "
              + Words.and(holds)
              + "; waits for "
              + lockText(target, w)
              + ", held by "
              + byIdLabel(byId, w.owner());
      e.thread(
          t == null
              ? new Evidence.ThreadEntry(id, 0, null, role, List.of())
              : Stacks.entry(t, role));
    }
    for (int id : cycle) {
      Wait w = waits.get(id);
      e.object(
          new Evidence.ObjectEntry(
              w.object(),
              target.typeName(w.object()),
              target.sizeOf(w.object()),
              null,
              (w.lockType() ? "Lock" : "Monitor")
                  + " held by "
                  + byIdLabel(byId, w.owner())
                  + ", waited for by "
                  + byIdLabel(byId, id)));
    }
    String title =
        cycle.size() == 2
            ? "Threads "
                + labels.get(0)
                + " and "
                + labels.get(1)
                + " are deadlocked: each waits for a lock the other holds."
            : Words.count(cycle.size())
                + " threads are deadlocked: "
                + Words.and(labels)
                + " each wait for a lock the next one holds.";
    List<String> next = new ArrayList<>();
    next.add(Next.analyze(target, "syncblk"));
    next.add(Next.analyze(target, "setthread -t " + cycle.get(0), "clrstack"));
    return new Finding(Finding.Kind.DEADLOCK, Severity.CRITICAL, title, e.build(), next);
  }

  private static String lockText(TriageTarget target, Wait w) {
    String type = target.typeName(w.object());
    return (type == null ? "an object" : type) + " " + Next.hex(w.object());
  }

  private static String byIdLabel(Map<Integer, ThreadView> byId, int id) {
    ThreadView t = byId.get(id);
    return t == null ? Integer.toString(id) : Stacks.label(t);
  }
}
