package dev.clrscope.monitor.counters;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The latest value of every time series a session asked for, for a live view: fed with {@link
 * CounterUpdate}s on the reader thread, read as {@link #rows()} on the drawing thread.
 *
 * <p>Instruments that were named in {@code --counters}, or announced by BeginInstrumentReporting,
 * appear at once, as waiting for their first value, so that a quiet instrument is visibly there
 * rather than missing; {@link #neverSeen()} tells at the end which were never heard of at all.
 */
public final class CounterBoard {
  /**
   * One line of the view.
   *
   * @param provider the Meter or EventSource
   * @param source METER or EVENT_COUNTERS
   * @param name the instrument's name (an EventCounter's display name)
   * @param unit its unit, or empty
   * @param type its kind, or null while unknown
   * @param tags the time series' tags; empty for an instrument still waiting
   * @param latest its latest value, or null while waiting for the first
   * @param delta the change of the shown number since the previous interval, or null
   */
  public record Row(
      String provider,
      CounterSource source,
      String name,
      String unit,
      InstrumentType type,
      Map<String, String> tags,
      Measurement latest,
      Double delta) {}

  private record InstrumentKey(String provider, CounterSource source, String name) {}

  private final CounterPlan plan;
  private final Map<InstrumentKey, Instrument> instruments = new LinkedHashMap<>();
  private final Set<InstrumentKey> named = new LinkedHashSet<>();
  private final Map<Measurement.SeriesKey, Measurement> latest = new LinkedHashMap<>();
  private final Map<Measurement.SeriesKey, Double> deltas = new LinkedHashMap<>();
  private final List<SessionProblem> problems = new ArrayList<>();
  private long measurements;

  /** An empty board for a plan; the instruments named in it wait for their first value. */
  public CounterBoard(CounterPlan plan) {
    this.plan = plan;
    for (CounterRequest r : plan.requests()) {
      for (String c : r.counters()) {
        named.add(new InstrumentKey(r.provider(), r.source(), c));
      }
    }
  }

  /** Takes one update; what was not asked for is ignored. Returns whether the view changed. */
  public synchronized boolean accept(CounterUpdate u) {
    if (u instanceof Instrument i) {
      if (!plan.wants(i)) {
        return false;
      }
      return instruments.putIfAbsent(new InstrumentKey(i.provider(), i.source(), i.name()), i)
          == null;
    }
    if (u instanceof Measurement m) {
      if (!plan.wants(m)) {
        return false;
      }
      measurements++;
      Measurement before = latest.put(m.key(), m);
      Double now = m.primary();
      Double was = before == null ? null : before.primary();
      deltas.put(m.key(), now == null || was == null ? null : now - was);
      instruments.putIfAbsent(
          new InstrumentKey(m.provider(), m.source(), m.name()),
          new Instrument(
              m.provider(), m.source(), m.name(), m.displayName(), m.type(), m.unit(), ""));
      return true;
    }
    if (u instanceof SessionProblem p) {
      problems.add(p);
      return true;
    }
    return false;
  }

  /** The rows to show, grouped by provider (in order of first appearance), then by instrument. */
  public synchronized List<Row> rows() {
    Map<String, List<Row>> byProvider = new LinkedHashMap<>();
    Set<InstrumentKey> keys = new LinkedHashSet<>(named);
    keys.addAll(instruments.keySet());
    for (InstrumentKey k : keys) {
      Instrument i = instruments.get(k);
      List<Row> rows =
          byProvider.computeIfAbsent(k.provider() + "\u0000" + k.source(), x -> new ArrayList<>());
      boolean any = false;
      for (Map.Entry<Measurement.SeriesKey, Measurement> e : latest.entrySet()) {
        Measurement.SeriesKey s = e.getKey();
        if (s.provider().equals(k.provider())
            && s.source() == k.source()
            && s.name().equals(k.name())) {
          Measurement m = e.getValue();
          rows.add(
              new Row(
                  k.provider(),
                  k.source(),
                  m.displayName(),
                  m.unit(),
                  i == null ? m.type() : i.type(),
                  m.tags(),
                  m,
                  deltas.get(s)));
          any = true;
        }
      }
      if (!any) {
        if (i == null && hidden(k)) {
          continue;
        }
        rows.add(
            new Row(
                k.provider(),
                k.source(),
                i == null ? k.name() : i.displayName(),
                i == null ? "" : i.unit(),
                i == null ? null : i.type(),
                Map.of(),
                null,
                null));
      }
    }
    List<Row> all = new ArrayList<>();
    byProvider.values().forEach(all::addAll);
    return all;
  }

  /**
   * Whether a named instrument that has not shown up is better left out: a name given without a
   * source is asked for as a Meter and as EventCounters, and only one of the two can exist. The
   * twin shows instead when it was seen, or (both unseen) the Meter one stands for both.
   */
  private boolean hidden(InstrumentKey k) {
    CounterSource other =
        k.source() == CounterSource.METER ? CounterSource.EVENT_COUNTERS : CounterSource.METER;
    InstrumentKey twin = new InstrumentKey(k.provider(), other, k.name());
    if (!named.contains(twin)) {
      return false;
    }
    return instruments.containsKey(twin) || k.source() == CounterSource.EVENT_COUNTERS;
  }

  /** How many wanted values arrived so far. */
  public synchronized long measurements() {
    return measurements;
  }

  /** The problems the target reported so far. */
  public synchronized List<SessionProblem> problems() {
    return List.copyOf(problems);
  }

  /**
   * What was asked for and never heard of: instruments named in {@code --counters} that were
   * neither announced nor measured, and providers asked for whole that sent nothing. Each entry
   * says why that may be.
   */
  public synchronized List<String> neverSeen() {
    List<String> notes = new ArrayList<>();
    for (InstrumentKey k : named) {
      if (!instruments.containsKey(k) && !hidden(k)) {
        InstrumentKey twin =
            new InstrumentKey(k.provider(), CounterSource.EVENT_COUNTERS, k.name());
        String where =
            k.source() == CounterSource.METER && named.contains(twin)
                ? "Meter or EventCounters"
                : describe(k.source());
        notes.add(
            k.provider()
                + "["
                + k.name()
                + "] ("
                + where
                + "): never published: the process has no such instrument, or it was never"
                + " created or enabled");
      }
    }
    Set<String> seenProviders = new LinkedHashSet<>();
    for (InstrumentKey k : instruments.keySet()) {
      seenProviders.add(k.source() + "\u0000" + k.provider().toLowerCase(java.util.Locale.ROOT));
    }
    // A name given without a source is asked for both ways; it is missing only if neither came.
    Set<String> anySeen = new LinkedHashSet<>();
    for (InstrumentKey k : instruments.keySet()) {
      anySeen.add(k.provider().toLowerCase(java.util.Locale.ROOT));
    }
    Set<String> reported = new LinkedHashSet<>();
    for (CounterRequest r : plan.requests()) {
      String lower = r.provider().toLowerCase(java.util.Locale.ROOT);
      if (!r.wantsAll() || seenProviders.contains(r.source() + "\u0000" + lower)) {
        continue;
      }
      if (anySeen.contains(lower) || !reported.add(lower)) {
        continue;
      }
      notes.add(
          r.provider()
              + ": nothing published: no Meter and no EventSource with counters of that name in"
              + " this process (yet); `clrscope counters list -p PID` shows what it publishes");
    }
    return notes;
  }

  private static String describe(CounterSource s) {
    return s == CounterSource.METER ? "Meter" : "EventCounters";
  }
}
