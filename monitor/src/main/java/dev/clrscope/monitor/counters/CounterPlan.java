package dev.clrscope.monitor.counters;

import dev.clrscope.ipc.session.EventLevel;
import dev.clrscope.ipc.session.EventPipeProvider;
import dev.clrscope.ipc.session.EventPipeSessionConfig;
import dev.clrscope.monitor.session.SessionRequest;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * What a counters session enables, and which of the values it receives were asked for.
 *
 * <p>Built from the {@code --counters} requests and the target's .NET version: a name that does not
 * say its source is read as a Meter and as EventCounters both, except System.Runtime, which is a
 * Meter on .NET 9 and later and EventCounters before. Meters go through one {@code
 * System.Diagnostics.Metrics} provider (keyword TimeSeriesValues, whose BeginInstrumentReporting
 * events name every instrument before its first value); EventCounters are one provider each.
 *
 * <p>Latency: with the reader's default (global) ordering, MetricsEventSource's values, written
 * from one thread, would wait for the next interval's events (1.1 s at a 1 s refresh); the CLI
 * reads sessions with live ordering ({@code NetTraceReader.openLive}), which hands them out within
 * about 0.1 s. The plan adds no "heartbeat" of the runtime's own EventCounters: enabling those in a
 * starting process can deadlock it (dotnet/runtime#105682, #118014; reproduced here: the
 * CollectTracing reply never came, 1 start in 4).
 *
 * @param requests what was asked for, each with its source resolved (METER or EVENT_COUNTERS)
 * @param providers the providers to enable
 * @param sessionId the MetricsEventSource session id whose events to read
 * @param refreshSeconds the interval
 */
public record CounterPlan(
    List<CounterRequest> requests,
    List<EventPipeProvider> providers,
    String sessionId,
    double refreshSeconds) {

  /** MetricsEventSource's keyword TimeSeriesValues: the values and BeginInstrumentReporting. */
  public static final long TIME_SERIES_VALUES = 0x2;

  /** MetricsEventSource's keyword InstrumentPublishing: every instrument of the process. */
  public static final long INSTRUMENT_PUBLISHING = 0x4;

  private static final int INFORMATIONAL = EventLevel.INFORMATIONAL.value();

  /** Copies the lists. */
  public CounterPlan {
    requests = List.copyOf(requests);
    providers = List.copyOf(providers);
  }

  /**
   * The live session this plan asks for: no rundown, no stacks, a small buffer, and live ordering
   * (each value carries its own timestamp, so a value may come as soon as its flush arrived).
   */
  public SessionRequest sessionRequest() {
    return SessionRequest.of(
            new EventPipeSessionConfig(4, providers, 0, false, false), "clrscope-counters-reader")
        .withOrdering(SessionRequest.Ordering.LIVE);
  }

  /**
   * Plans a session.
   *
   * @param requests the parsed {@code --counters}
   * @param refreshSeconds the interval, in seconds
   * @param maxHistograms MetricsEventSource's MaxHistograms
   * @param maxTimeSeries MetricsEventSource's MaxTimeSeries
   * @param runtimeMajor the target's .NET major version; 0 if unknown (taken as current)
   */
  public static CounterPlan of(
      List<CounterRequest> requests,
      double refreshSeconds,
      int maxHistograms,
      int maxTimeSeries,
      int runtimeMajor) {
    boolean modern = runtimeMajor == 0 || runtimeMajor >= 9;
    List<CounterRequest> resolved = new ArrayList<>();
    for (CounterRequest r : requests) {
      if (r.source() != CounterSource.ANY) {
        resolved.add(r);
      } else if (r.provider().equals(WellKnownCounters.SYSTEM_RUNTIME)) {
        resolved.add(
            new CounterRequest(
                r.provider(),
                modern ? CounterSource.METER : CounterSource.EVENT_COUNTERS,
                r.counters()));
      } else {
        resolved.add(new CounterRequest(r.provider(), CounterSource.METER, r.counters()));
        resolved.add(new CounterRequest(r.provider(), CounterSource.EVENT_COUNTERS, r.counters()));
      }
    }
    String interval = seconds(refreshSeconds);
    List<EventPipeProvider> providers = new ArrayList<>();
    List<String> metrics = new ArrayList<>();
    for (CounterRequest r : resolved) {
      if (r.source() == CounterSource.METER) {
        if (r.wantsAll()) {
          metrics.add(r.provider());
        } else {
          r.counters().forEach(c -> metrics.add(r.provider() + "\\" + c));
        }
      } else {
        providers.add(
            new EventPipeProvider(
                r.provider(),
                0,
                INFORMATIONAL,
                Map.of("EventCounterIntervalSec", interval),
                List.of()));
      }
    }
    // .NET 8 and later share one MetricsEventSource session between tools (SessionId SHARED, each
    // tool with its own ClientId); older runtimes allow one session, named by a unique id.
    String sessionId =
        runtimeMajor == 0 || runtimeMajor >= 8 ? "SHARED" : UUID.randomUUID().toString();
    if (!metrics.isEmpty()) {
      Map<String, String> args = new LinkedHashMap<>();
      args.put("SessionId", sessionId);
      args.put("Metrics", String.join(",", metrics));
      args.put("RefreshInterval", interval);
      args.put("MaxTimeSeries", Integer.toString(maxTimeSeries));
      args.put("MaxHistograms", Integer.toString(maxHistograms));
      args.put("ClientId", UUID.randomUUID().toString());
      providers.add(
          0,
          new EventPipeProvider(
              CounterEventDecoder.METRICS_PROVIDER,
              TIME_SERIES_VALUES,
              INFORMATIONAL,
              args,
              List.of()));
    }
    return new CounterPlan(resolved, providers, sessionId, refreshSeconds);
  }

  /**
   * A session that discovers what a process publishes: every instrument of every Meter
   * (InstrumentPublishing, no values), and the EventCounters of the named EventSources.
   */
  public static CounterPlan discovery(List<String> eventSources, double refreshSeconds) {
    List<EventPipeProvider> providers = new ArrayList<>();
    Map<String, String> args = new LinkedHashMap<>();
    String sessionId = UUID.randomUUID().toString();
    args.put("SessionId", sessionId);
    args.put("Metrics", "");
    args.put("RefreshInterval", seconds(refreshSeconds));
    providers.add(
        new EventPipeProvider(
            CounterEventDecoder.METRICS_PROVIDER,
            INSTRUMENT_PUBLISHING,
            INFORMATIONAL,
            args,
            List.of()));
    List<CounterRequest> requests = new ArrayList<>();
    for (String source : eventSources) {
      providers.add(
          new EventPipeProvider(
              source,
              0,
              INFORMATIONAL,
              Map.of("EventCounterIntervalSec", seconds(refreshSeconds)),
              List.of()));
      requests.add(new CounterRequest(source, CounterSource.EVENT_COUNTERS, List.of()));
    }
    return new CounterPlan(requests, providers, sessionId, refreshSeconds);
  }

  /**
   * Whether a value belongs to what was asked for (rather than to a shared session's other tools).
   */
  public boolean wants(Measurement m) {
    return requestFor(m.provider(), m.source(), m.name()) != null;
  }

  /** Whether an announced instrument belongs to what was asked for. */
  public boolean wants(Instrument i) {
    return requestFor(i.provider(), i.source(), i.name()) != null;
  }

  private CounterRequest requestFor(String provider, CounterSource source, String name) {
    for (CounterRequest r : requests) {
      // Meter and EventSource names are matched as the runtime matches them: ignoring case.
      if (r.source() == source
          && r.provider().equalsIgnoreCase(provider)
          && (r.wantsAll() || r.counters().contains(name))) {
        return r;
      }
    }
    return null;
  }

  /** The interval as the runtime's argument parsers read it: invariant, no exponent. */
  static String seconds(double s) {
    if (s == Math.rint(s)) {
      return Long.toString((long) s);
    }
    return String.format(Locale.ROOT, "%s", java.math.BigDecimal.valueOf(s).toPlainString());
  }
}
