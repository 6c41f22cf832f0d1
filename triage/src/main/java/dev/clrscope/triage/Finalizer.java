package dev.clrscope.triage;

import dev.clrscope.symbols.Frame;
import dev.clrscope.triage.TriageTarget.FrameView;
import dev.clrscope.triage.TriageTarget.ThreadView;
import java.util.List;
import java.util.Map;

/**
 * A blocked finalizer: the finalizer thread inside a {@code Finalize} method and waiting, with the
 * objects ready for finalization that wait behind it. An idle finalizer thread has no managed frame
 * (it waits for work in the runtime's native code).
 */
final class Finalizer {
  private Finalizer() {}

  /** A busy (not blocked) finalizer is a finding from this many objects waiting. */
  static final long BUSY_BACKLOG = 10_000;

  static void run(TriageTarget target, Results out) {
    ThreadView finalizer = null;
    for (ThreadView t : target.threads()) {
      if (t.finalizer()) {
        finalizer = t;
      }
    }
    Map<String, Long> ready = target.readyForFinalization();
    long waiting = ready.values().stream().mapToLong(Long::longValue).sum();
    Frame running = finalizer == null ? null : finalizeFrame(finalizer.frames());
    Stacks.Blocking blocking = finalizer == null ? null : Stacks.blocking(finalizer.frames());
    out.checked(
        "finalizer",
        (finalizer == null
                ? "no finalizer thread"
                : running == null
                    ? "thread " + finalizer.osId() + " idle"
                    : "thread " + finalizer.osId() + " in " + running.text())
            + "; "
            + Words.count(waiting, "object", "objects")
            + " ready for finalization");
    if (running == null || (blocking == null && waiting < BUSY_BACKLOG)) {
      return;
    }
    Evidence.Builder e = Evidence.builder();
    e.thread(Stacks.entry(finalizer, blocking == null ? "runs " + running.text() : "blocked"));
    e.fact("ready for finalization", waiting);
    ready.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .limit(5)
        .forEach(r -> e.fact("ready: " + r.getKey(), r.getValue()));
    String title =
        (blocking != null
                ? "The finalizer thread " + Stacks.label(finalizer) + " is blocked in "
                : "The finalizer thread " + Stacks.label(finalizer) + " is busy in ")
            + running.text()
            + ": "
            + Words.count(waiting, "object waits", "objects wait")
            + " for finalization behind it, and their memory with them.";
    out.add(
        new Finding(
            Finding.Kind.FINALIZER,
            blocking != null ? Severity.ERROR : Severity.WARNING,
            title,
            e.build(),
            List.of(
                Next.analyze(target, "setthread -t " + finalizer.osId(), "clrstack"),
                Next.analyze(target, "finalizequeue"))));
  }

  /** The Finalize method the thread runs (the innermost one), or null. */
  private static Frame finalizeFrame(List<FrameView> frames) {
    for (FrameView f : frames) {
      if (!f.runtime() && f.method().endsWith(".Finalize")) {
        return f.frame();
      }
    }
    return null;
  }
}
