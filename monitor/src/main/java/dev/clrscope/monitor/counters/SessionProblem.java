package dev.clrscope.monitor.counters;

/**
 * A problem the target's metrics machinery reports about the session.
 *
 * @param kind what went wrong
 * @param message the target's own words, or an explanation when it gives none
 */
public record SessionProblem(Kind kind, String message) implements CounterUpdate {
  /** The problems MetricsEventSource reports. */
  public enum Kind {
    /** More time series (instrument and tag combinations) than {@code --maxTimeSeries}. */
    TIME_SERIES_LIMIT,
    /** More histograms than {@code --maxHistograms}. */
    HISTOGRAM_LIMIT,
    /** An observable instrument's callback threw. */
    CALLBACK_ERROR,
    /** Another tool holds the target's only metrics session (.NET 7 and older). */
    OTHER_SESSION,
    /** Another tool shares the session with other settings (refresh interval, limits). */
    SHARED_SESSION_MISMATCH,
    /** Any other error MetricsEventSource reports. */
    ERROR
  }

  /**
   * Whether the target refused this session outright (another tool holds or shares its metrics
   * session): no values will come, so the command fails, as dotnet-counters does.
   */
  public boolean refusesSession() {
    return kind == Kind.OTHER_SESSION || kind == Kind.SHARED_SESSION_MISMATCH;
  }
}
