package dev.clrscope.triage;

import dev.clrscope.dac.analysis.Timers;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Timers piling up on one callback: timers started again and again and never disposed. */
final class TimerPileUp {
  private TimerPileUp() {}

  static void run(TriageTarget target, TriageSettings s, Results out) {
    List<Timers.TimerInfo> timers = target.timers();
    Map<String, List<Timers.TimerInfo>> byCallback = new LinkedHashMap<>();
    for (Timers.TimerInfo t : timers) {
      if (!t.canceled()) {
        String callback = t.callback() == null ? "(unknown callback)" : t.callback();
        byCallback.computeIfAbsent(callback, k -> new ArrayList<>()).add(t);
      }
    }
    for (Map.Entry<String, List<Timers.TimerInfo>> c : byCallback.entrySet()) {
      List<Timers.TimerInfo> list = c.getValue();
      if (list.size() < s.minTimers()) {
        continue;
      }
      String method = Stacks.withoutParameters(c.getKey());
      Evidence.Builder e = Evidence.builder();
      for (Timers.TimerInfo t : list.subList(0, Math.min(3, list.size()))) {
        e.object(
            new Evidence.ObjectEntry(
                t.address(),
                "System.Threading.TimerQueueTimer",
                target.sizeOf(t.address()),
                null,
                "due in "
                    + Words.count(t.dueTimeMs())
                    + " ms"
                    + (t.periodMs() == Timers.INFINITE
                        ? ""
                        : ", every " + Words.count(t.periodMs()) + " ms")));
      }
      e.fact("timers", (long) list.size());
      e.fact("callback", method);
      out.add(
          new Finding(
              Finding.Kind.TIMERS,
              Severity.WARNING,
              Words.count(list.size())
                  + " timers call "
                  + method
                  + ": timers started again and again and never disposed stay in the timer queue"
                  + " with all they reference.",
              e.build(),
              List.of(Next.analyze(target, "timerinfo"))));
    }
    out.checked(
        "timers",
        Words.count(timers.size(), "timer", "timers")
            + " on "
            + Words.count(byCallback.size(), "callback", "callbacks"));
  }
}
