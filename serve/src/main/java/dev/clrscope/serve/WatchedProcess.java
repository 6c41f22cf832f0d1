package dev.clrscope.serve;

import dev.clrscope.monitor.counters.CounterPlan;
import dev.clrscope.monitor.counters.CounterUpdate;
import dev.clrscope.monitor.counters.Instrument;
import dev.clrscope.monitor.counters.InstrumentType;
import dev.clrscope.monitor.counters.Measurement;
import dev.clrscope.monitor.counters.SessionProblem;
import dev.clrscope.monitor.session.SessionRunner;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** One .NET process under watch: its counters session and the state of each of its series. */
final class WatchedProcess {
  private final ProcessFacts facts;
  private final CounterPlan plan;
  private final Map<Measurement.SeriesKey, SeriesState> series = new LinkedHashMap<>();
  private SessionRunner runner;

  WatchedProcess(ProcessFacts facts, CounterPlan plan) {
    this.facts = facts;
    this.plan = plan;
  }

  ProcessFacts facts() {
    return facts;
  }

  void attach(SessionRunner runner) {
    this.runner = runner;
  }

  SessionRunner runner() {
    return runner;
  }

  /**
   * The kinds the target announced (InstrumentPublished): a value event does not tell an observable
   * up-down counter from a counter, the announcement does.
   */
  private final Map<String, InstrumentType> announced = new HashMap<>();

  /** Takes an update, on the session's reader thread. */
  synchronized void accept(CounterUpdate u) {
    if (u instanceof SessionProblem p) {
      problem = p.message();
    } else if (u instanceof Instrument i
        && i.type() != null
        && i.type() != InstrumentType.UNKNOWN) {
      announced.put(i.provider() + "\u0000" + i.name(), i.type());
    } else if (u instanceof Measurement m && plan.wants(m)) {
      InstrumentType type = announced.getOrDefault(m.provider() + "\u0000" + m.name(), m.type());
      series.put(m.key(), SeriesState.next(series.get(m.key()), m, type));
    }
  }

  /** What the target said was wrong with the session (another tool's settings), or null. */
  private String problem;

  synchronized String problem() {
    return problem;
  }

  /** The series as they stand. */
  synchronized List<SeriesState> series() {
    return new ArrayList<>(series.values());
  }
}
