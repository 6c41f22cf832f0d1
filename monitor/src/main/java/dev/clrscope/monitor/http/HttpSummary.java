package dev.clrscope.monitor.http;

import dev.clrscope.monitor.DurationSample;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a session saw of HttpClient requests: per host, path template ({@link PathTemplate}: the
 * path with its ids folded to {@code {id}}) and outcome (status code, or {@code failed}), how many
 * and how long they took, and how long the server took to answer.
 *
 * @param requests how many requests ended while watched
 * @param failed how many of them failed (no response)
 * @param redirects how many redirects they followed
 * @param observedNanos how long the session watched
 * @param byPath per host, path template and outcome, in that order
 */
public record HttpSummary(
    long requests, long failed, long redirects, long observedNanos, List<Group> byPath) {

  /**
   * The requests to one path of one host with one outcome.
   *
   * @param host host and port
   * @param path the path template ({@code /orders/{id}})
   * @param status the status code, or {@code failed}
   * @param count how many
   * @param p50Millis the median duration (nearest rank)
   * @param p95Millis the 95th percentile (nearest rank)
   * @param maxMillis the longest
   * @param serverP50Millis the median of the server's share, or {@code null} when none was seen
   */
  public record Group(
      String host,
      String path,
      String status,
      long count,
      double p50Millis,
      double p95Millis,
      double maxMillis,
      Double serverP50Millis) {}

  /** Copies the list. */
  public HttpSummary {
    byPath = List.copyOf(byPath);
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
    private record Key(String host, String path, String status) {}

    private final Map<Key, DurationSample> durations =
        new TreeMap<>(
            Comparator.comparing(Key::host).thenComparing(Key::path).thenComparing(Key::status));
    private final Map<Key, DurationSample> server = new java.util.HashMap<>();
    private long requests;
    private long failed;
    private long redirects;

    void add(HttpRecord r) {
      requests++;
      if (r.status() == null) {
        failed++;
      }
      redirects += r.redirects().size();
      Key key = new Key(r.host(), PathTemplate.of(r.url()), r.outcome());
      durations.computeIfAbsent(key, k -> new DurationSample()).add(r.durationNanos());
      Long waited = r.phases().get(HttpPhase.SERVER);
      if (waited != null) {
        server.computeIfAbsent(key, k -> new DurationSample()).add(waited);
      }
    }

    HttpSummary build(long observedNanos) {
      List<Group> groups = new ArrayList<>();
      durations.forEach(
          (k, sample) -> {
            DurationSample.Stats s = sample.stats();
            DurationSample waited = server.get(k);
            groups.add(
                new Group(
                    k.host(),
                    k.path(),
                    k.status(),
                    s.count(),
                    s.p50Millis(),
                    s.p95Millis(),
                    s.maxMillis(),
                    waited == null ? null : waited.stats().p50Millis()));
          });
      return new HttpSummary(requests, failed, redirects, observedNanos, groups);
    }
  }
}
