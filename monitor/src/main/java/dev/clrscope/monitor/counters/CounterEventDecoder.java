package dev.clrscope.monitor.counters;

import dev.clrscope.nettrace.DecodedPayload;
import dev.clrscope.nettrace.TraceEvent;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Turns the events of a counters session into {@link CounterUpdate}s: MetricsEventSource's events
 * (provider {@code System.Diagnostics.Metrics}) and every EventSource's {@code EventCounters}
 * event. Stateless; events of other providers, and MetricsEventSource events of another session,
 * decode to nothing.
 *
 * <p>Payload fields as the .NET 10 runtime sends them (checked on real sessions, see
 * docs/counters.md): MetricsEventSource sends every number as invariant-culture text, empty when it
 * has none (a first interval's rate); tags as {@code k=v,k=v}; quantiles as {@code
 * 0.5=8;0.95=16;0.99=64}. An EventCounters event has one struct field whose {@code Payload} member
 * holds Name, DisplayName, DisplayUnits, CounterType ({@code Mean} or {@code Sum}), Mean, Min, Max,
 * Count, StandardDeviation or Increment, and IntervalSec, as numbers.
 */
public final class CounterEventDecoder {
  /** The provider that carries Meter values. */
  public static final String METRICS_PROVIDER = "System.Diagnostics.Metrics";

  private final String sessionId;

  /**
   * A decoder for one session.
   *
   * @param sessionId the {@code SessionId} the session was started with; MetricsEventSource events
   *     of other sessions are ignored. {@code null} accepts every session.
   */
  public CounterEventDecoder(String sessionId) {
    this.sessionId = sessionId;
  }

  /** What {@code e} says, or empty if it is not a counter event of this session. */
  public Optional<CounterUpdate> decode(TraceEvent e) {
    String provider = e.providerName();
    String event = e.eventName();
    if (METRICS_PROVIDER.equals(provider)) {
      return decodeMetrics(e, event);
    }
    if ("EventCounters".equals(event)) {
      return decodeEventCounters(e, provider);
    }
    return Optional.empty();
  }

  private Optional<CounterUpdate> decodeMetrics(TraceEvent e, String event) {
    if (event == null) {
      return Optional.empty();
    }
    DecodedPayload p = e.decodeSelfDescribed();
    if (event.equals("MultipleSessionsNotSupportedError")) {
      // Sent to the new session's listener, naming the session that holds the target.
      return Optional.of(
          new SessionProblem(
              SessionProblem.Kind.OTHER_SESSION,
              "another tool is already reading this process's metrics (session "
                  + text(p, "runningSessionId")
                  + ") and this .NET version allows only one such session: stop it and retry"));
    }
    if (event.equals("MultipleSessionsConfiguredIncorrectlyError")) {
      return Optional.of(
          new SessionProblem(
              SessionProblem.Kind.SHARED_SESSION_MISMATCH,
              "another tool shares this process's metrics session with other settings"
                  + sharedMismatch(p)
                  + ": use the same --refresh-interval, --maxHistograms and --maxTimeSeries, or"
                  + " stop it"));
    }
    String session = text(p, "sessionId");
    if (sessionId != null && session != null && !sessionId.equals(session)) {
      return Optional.empty();
    }
    Instant time = e.timeUtc();
    switch (event) {
      case "CounterRateValuePublished":
      case "UpDownCounterRateValuePublished":
      case "GaugeValuePublished":
      case "HistogramValuePublished":
        return Optional.of(meterValue(time, event, p));
      case "BeginInstrumentReporting":
      case "InstrumentPublished":
        String name = text(p, "instrumentName");
        if (name == null || name.isEmpty()) {
          // InstrumentPublished also reports meters without instruments this way.
          return Optional.empty();
        }
        return Optional.of(
            new Instrument(
                text(p, "meterName"),
                CounterSource.METER,
                name,
                name,
                InstrumentType.ofMeterTypeName(text(p, "instrumentType")),
                orEmpty(text(p, "unit")),
                orEmpty(text(p, "description"))));
      case "CollectionStop":
        return Optional.of(
            new CollectionEnd(
                time, instant(p.get("intervalStartTime")), instant(p.get("intervalEndTime"))));
      case "TimeSeriesLimitReached":
        return Optional.of(
            new SessionProblem(
                SessionProblem.Kind.TIME_SERIES_LIMIT,
                "the target reached the limit of time series (--maxTimeSeries): new instrument"
                    + " and tag combinations are not reported"));
      case "HistogramLimitReached":
        return Optional.of(
            new SessionProblem(
                SessionProblem.Kind.HISTOGRAM_LIMIT,
                "the target reached the limit of histograms (--maxHistograms): further"
                    + " histograms are not reported"));
      case "ObservableInstrumentCallbackError":
        return Optional.of(
            new SessionProblem(
                SessionProblem.Kind.CALLBACK_ERROR,
                "an observable instrument's callback failed in the target: "
                    + orEmpty(text(p, "errorMessage"))));
      case "Error":
        return Optional.of(
            new SessionProblem(
                SessionProblem.Kind.ERROR,
                "the target's metrics reported an error: " + orEmpty(text(p, "errorMessage"))));
      default:
        return Optional.empty();
    }
  }

  private static String sharedMismatch(DecodedPayload p) {
    StringBuilder sb = new StringBuilder();
    String[][] pairs = {
      {"expectedRefreshInterval", "actualRefreshInterval", "refresh interval"},
      {"expectedMaxHistograms", "actualMaxHistograms", "max histograms"},
      {"expectedMaxTimeSeries", "actualMaxTimeSeries", "max time series"}
    };
    for (String[] pair : pairs) {
      // "Expected" is the shared session's setting, "actual" the one this session asked for.
      String theirs = text(p, pair[0]);
      String mine = text(p, pair[1]);
      if (mine != null && theirs != null && !mine.equals(theirs)) {
        sb.append(sb.length() == 0 ? " (" : ", ")
            .append(pair[2])
            .append(' ')
            .append(theirs)
            .append(" there, ")
            .append(mine)
            .append(" asked");
      }
    }
    return sb.length() == 0 ? "" : sb.append(')').toString();
  }

  private static Measurement meterValue(Instant time, String event, DecodedPayload p) {
    String name = orEmpty(text(p, "instrumentName"));
    Map<String, String> tags = parseTags(text(p, "tags"));
    String meter = orEmpty(text(p, "meterName"));
    String unit = orEmpty(text(p, "unit"));
    switch (event) {
      case "CounterRateValuePublished":
        // The event does not say observable or not; the instrument announcement does.
        return meterScalar(
            time,
            meter,
            name,
            unit,
            InstrumentType.COUNTER,
            tags,
            number(p.get("rate")),
            number(p.get("value")));
      case "UpDownCounterRateValuePublished":
        return meterScalar(
            time,
            meter,
            name,
            unit,
            InstrumentType.UP_DOWN_COUNTER,
            tags,
            number(p.get("rate")),
            number(p.get("value")));
      case "GaugeValuePublished":
        return meterScalar(
            time, meter, name, unit, InstrumentType.GAUGE, tags, null, number(p.get("lastValue")));
      default:
        Double count = number(p.get("count"));
        return new Measurement(
            time,
            meter,
            CounterSource.METER,
            name,
            name,
            unit,
            InstrumentType.HISTOGRAM,
            tags,
            null,
            null,
            null,
            null,
            count == null || count.isNaN() ? null : count.longValue(),
            number(p.get("sum")),
            parseQuantiles(text(p, "quantiles")),
            null);
    }
  }

  /** A Meter instrument's single value (not a histogram): rate and/or value, nothing else. */
  private static Measurement meterScalar(
      Instant time,
      String meter,
      String name,
      String unit,
      InstrumentType type,
      Map<String, String> tags,
      Double rate,
      Double value) {
    return new Measurement(
        time,
        meter,
        CounterSource.METER,
        name,
        name,
        unit,
        type,
        tags,
        rate,
        value,
        null,
        null,
        null,
        null,
        Map.of(),
        null);
  }

  private static Optional<CounterUpdate> decodeEventCounters(TraceEvent e, String provider) {
    Map<?, ?> payload = findPayload(e.decodeSelfDescribed().asMap(), 0);
    if (payload == null) {
      return Optional.empty();
    }
    String name = str(payload.get("Name"));
    if (name == null) {
      return Optional.empty();
    }
    String display = str(payload.get("DisplayName"));
    String unit = orEmpty(str(payload.get("DisplayUnits")));
    boolean sum =
        "sum".equals(orEmpty(str(payload.get("CounterType"))).toLowerCase(Locale.ROOT))
            || payload.containsKey("Increment");
    Double interval = number(payload.get("IntervalSec"));
    Double count = number(payload.get("Count"));
    Measurement m =
        sum
            ? new Measurement(
                e.timeUtc(),
                provider,
                CounterSource.EVENT_COUNTERS,
                name,
                display == null || display.isEmpty() ? name : display,
                unit,
                InstrumentType.INCREMENTING_EVENT_COUNTER,
                Map.of(),
                number(payload.get("Increment")),
                null,
                null,
                null,
                null,
                null,
                Map.of(),
                interval)
            : new Measurement(
                e.timeUtc(),
                provider,
                CounterSource.EVENT_COUNTERS,
                name,
                display == null || display.isEmpty() ? name : display,
                unit,
                InstrumentType.EVENT_COUNTER,
                Map.of(),
                null,
                number(payload.get("Mean")),
                number(payload.get("Min")),
                number(payload.get("Max")),
                count == null || count.isNaN() ? null : count.longValue(),
                null,
                Map.of(),
                interval);
    return Optional.of(m);
  }

  /** The struct that holds {@code Name}: the runtime nests it as {@code {"": {Payload: {...}}}}. */
  private static Map<?, ?> findPayload(Map<?, ?> fields, int depth) {
    if (fields.containsKey("Name") && depth > 0) {
      return fields;
    }
    if (depth > 3) {
      return null;
    }
    for (Object v : fields.values()) {
      if (v instanceof Map<?, ?> nested) {
        Map<?, ?> found = findPayload(nested, depth + 1);
        if (found != null) {
          return found;
        }
      }
    }
    return null;
  }

  /** Parses {@code k=v,k=v}; a value that itself holds {@code =} keeps it. */
  static Map<String, String> parseTags(String text) {
    Map<String, String> tags = new LinkedHashMap<>();
    if (text == null || text.isEmpty()) {
      return tags;
    }
    for (String pair : text.split(",", -1)) {
      int eq = pair.indexOf('=');
      if (eq > 0) {
        tags.put(pair.substring(0, eq), pair.substring(eq + 1));
      } else if (!pair.isEmpty() && !tags.isEmpty()) {
        // A comma inside a value: MetricsEventSource does not escape it, so glue it back.
        String last = null;
        for (String k : tags.keySet()) {
          last = k;
        }
        tags.put(last, tags.get(last) + "," + pair);
      }
    }
    return tags;
  }

  /** Parses {@code 0.5=8;0.95=16;0.99=64} into quantile → value. */
  static Map<Double, Double> parseQuantiles(String text) {
    Map<Double, Double> q = new TreeMap<>();
    if (text == null || text.isEmpty()) {
      return q;
    }
    for (String pair : text.split(";", -1)) {
      int eq = pair.lastIndexOf('=');
      if (eq <= 0) {
        continue;
      }
      // Older runtimes wrote Percentile=50=value: the quantile is then a percentage.
      String key = pair.substring(0, eq);
      if (key.startsWith("Percentile=")) {
        Double pct = number(key.substring("Percentile=".length()));
        Double v = number(pair.substring(eq + 1));
        if (pct != null) {
          q.put(pct / 100, v);
        }
        continue;
      }
      Double quantile = number(key);
      if (quantile != null) {
        q.put(quantile, number(pair.substring(eq + 1)));
      }
    }
    return q;
  }

  /**
   * A number from a payload: a boxed number, or invariant-culture text ("" and null give null;
   * "NaN", "Infinity" and .NET's "∞" are kept as such).
   */
  static Double number(Object v) {
    if (v == null) {
      return null;
    }
    if (v instanceof Number n) {
      return n.doubleValue();
    }
    String s = v.toString().strip();
    if (s.isEmpty()) {
      return null;
    }
    switch (s) {
      case "∞":
      case "+∞":
        return Double.POSITIVE_INFINITY;
      case "-∞":
        return Double.NEGATIVE_INFINITY;
      default:
        break;
    }
    try {
      return Double.parseDouble(s);
    } catch (NumberFormatException e) {
      return null;
    }
  }

  private static Instant instant(Object v) {
    if (v instanceof Instant i) {
      return i;
    }
    if (v == null) {
      return null;
    }
    try {
      return Instant.parse(v.toString());
    } catch (DateTimeParseException e) {
      return null;
    }
  }

  private static String text(DecodedPayload p, String field) {
    return str(p.get(field));
  }

  private static String str(Object v) {
    return v == null ? null : v.toString();
  }

  private static String orEmpty(String s) {
    return s == null ? "" : s;
  }
}
