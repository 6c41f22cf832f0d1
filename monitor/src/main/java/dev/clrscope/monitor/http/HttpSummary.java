package dev.clrscope.monitor.http;

import dev.clrscope.monitor.DurationSample;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a session saw of HttpClient requests: per host and outcome (status code, or {@code failed}),
 * how many and how long they took.
 *
 * @param requests how many requests ended while watched
 * @param failed how many of them failed (no response)
 * @param redirects how many redirects they followed
 * @param observedNanos how long the session watched
 * @param byHostAndStatus per host and outcome, by host then outcome
 */
public record HttpSummary(
    long requests, long failed, long redirects, long observedNanos, List<Group> byHostAndStatus) {

  /**
   * The requests to one host with one outcome.
   *
   * @param host host and port
   * @param status the status code, or {@code failed}
   * @param count how many
   * @param p50Millis the median duration (nearest rank)
   * @param p95Millis the 95th percentile (nearest rank)
   * @param maxMillis the longest
   */
  public record Group(
      String host,
      String status,
      long count,
      double p50Millis,
      double p95Millis,
      double maxMillis) {}

  /** Copies the list. */
  public HttpSummary {
    byHostAndStatus = List.copyOf(byHostAndStatus);
  }

  /** Requests per second over the time watched, or {@code null} if no time passed. */
  public Double perSecond() {
    return observedNanos <= 0 ? null : requests / (observedNanos / 1e9);
  }

  /**
   * Collects durations per host and outcome as requests end. Memory grows with the number of
   * requests (8 bytes each), as the exact percentiles need.
   */
  static final class Accumulator {
    private record Key(String host, String status) {}

    private final Map<Key, DurationSample> durations =
        new TreeMap<>(Comparator.comparing(Key::host).thenComparing(Key::status));
    private long requests;
    private long failed;
    private long redirects;

    void add(HttpRecord r) {
      requests++;
      if (r.status() == null) {
        failed++;
      }
      redirects += r.redirects().size();
      durations
          .computeIfAbsent(new Key(r.host(), r.outcome()), k -> new DurationSample())
          .add(r.durationNanos());
    }

    HttpSummary build(long observedNanos) {
      List<Group> groups = new ArrayList<>();
      durations.forEach(
          (k, sample) -> {
            DurationSample.Stats s = sample.stats();
            groups.add(
                new Group(
                    k.host(), k.status(), s.count(), s.p50Millis(), s.p95Millis(), s.maxMillis()));
          });
      return new HttpSummary(requests, failed, redirects, observedNanos, groups);
    }
  }
}
