package dev.clrscope.triage;

import dev.clrscope.triage.TriageTarget.ExceptionView;
import dev.clrscope.triage.TriageTarget.Signalled;
import dev.clrscope.triage.TriageTarget.ThreadView;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Crashes and exceptions: the thread a fatal signal stopped (a core written on a crash), with the
 * exception it was throwing; and the exception each other thread throws or last threw, with inner
 * exceptions and the lines they were thrown through.
 */
final class Exceptions {
  private Exceptions() {}

  /** At most this many threads' exceptions are findings of their own. */
  static final int MAX_FINDINGS = 10;

  private static final Map<Integer, String> SIGNALS =
      Map.of(
          4, "SIGILL", 6, "SIGABRT", 7, "SIGBUS", 8, "SIGFPE", 9, "SIGKILL", 11, "SIGSEGV", 15,
          "SIGTERM");

  static void run(TriageTarget target, Results out) {
    Signalled crash = target.crashSignal();
    int throwing = 0;
    boolean crashSeen = false;
    List<Finding> others = new ArrayList<>();
    for (ThreadView t : target.threads()) {
      boolean crashed = crash != null && crash.osId() == t.osId();
      ExceptionView ex = t.currentException() == 0 ? null : target.exception(t.currentException());
      if (ex == null && !crashed) {
        continue;
      }
      if (ex != null) {
        throwing++;
      }
      if (crashed) {
        crashSeen = true;
        out.add(crashFinding(target, crash, t, ex));
      } else {
        others.add(exceptionFinding(target, t, ex));
      }
    }
    if (crash != null && !crashSeen) {
      out.add(crashFinding(target, crash, null, null));
    }
    others.stream().limit(MAX_FINDINGS).forEach(out::add);
    out.checked(
        "exceptions",
        (crash == null
                ? target.isLive() ? "a live process" : "no thread stopped by a fatal signal"
                : "thread " + crash.osId() + " stopped by " + signal(crash.signal()))
            + "; "
            + Words.count(throwing, "thread throws or last threw", "threads throw or last threw")
            + " an exception");
  }

  private static Finding crashFinding(
      TriageTarget target, Signalled crash, ThreadView t, ExceptionView ex) {
    Evidence.Builder e = Evidence.builder();
    String who = t == null ? Integer.toString(crash.osId()) : Stacks.label(t);
    if (t != null) {
      e.thread(Stacks.entry(t, "stopped by " + signal(crash.signal())));
    }
    exceptions(ex, e);
    e.fact("signal", signal(crash.signal()));
    String title =
        "The process crashed on thread "
            + who
            + ", stopped by "
            + signal(crash.signal())
            + (ex == null
                ? "."
                : ", throwing "
                    + ex.type()
                    + (ex.message() == null ? "" : ": " + Words.cut(ex.message(), 120))
                    + (ex.inner() == null ? "" : " (inner: " + ex.inner().type() + ")")
                    + ".");
    List<String> next = new ArrayList<>();
    next.add(Next.analyze(target, "setthread -t " + crash.osId(), "pe", "clrstack"));
    return new Finding(Finding.Kind.CRASH, Severity.CRITICAL, title, e.build(), next);
  }

  private static Finding exceptionFinding(TriageTarget target, ThreadView t, ExceptionView ex) {
    Evidence.Builder e = Evidence.builder();
    e.thread(Stacks.entry(t, "threw " + ex.type()));
    exceptions(ex, e);
    String title =
        "Thread "
            + Stacks.label(t)
            + " threw "
            + ex.type()
            + (ex.message() == null ? "" : ": " + Words.cut(ex.message(), 120))
            + (ex.inner() == null ? "" : " (inner: " + ex.inner().type() + ")")
            + (ex.frames().isEmpty() ? "." : ", at " + ex.frames().get(0).text() + ".");
    return new Finding(
        Finding.Kind.EXCEPTION,
        Severity.INFO,
        title,
        e.build(),
        List.of(Next.analyze(target, "pe " + Next.hex(ex.address()))));
  }

  private static void exceptions(ExceptionView ex, Evidence.Builder e) {
    int depth = 0;
    for (ExceptionView x = ex; x != null && depth < 16; x = x.inner(), depth++) {
      e.exception(
          new Evidence.ExceptionEntry(
              depth, x.address(), x.type(), x.message(), x.hresult(), x.frames()));
    }
  }

  static String signal(int number) {
    String name = SIGNALS.get(number);
    return "signal " + number + (name == null ? "" : " (" + name + ")");
  }
}
