package dev.clrscope.monitor.http;

import dev.clrscope.monitor.gc.GcSummary;
import java.util.ArrayList;
import java.util.Arrays;
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

    private static final Comparator<Key> ORDER =
        Comparator.comparing(Key::host).thenComparing(Key::status);

    private final Map<Key, long[]> durations = new TreeMap<>(ORDER);
    private final Map<Key, Integer> sizes = new TreeMap<>(ORDER);
    private long requests;
    private long failed;
    private long redirects;

    void add(HttpRecord r) {
      requests++;
      if (r.status() == null) {
        failed++;
      }
      redirects += r.redirects().size();
      Key k = new Key(r.host(), r.outcome());
      long[] values = durations.get(k);
      int n = sizes.getOrDefault(k, 0);
      if (values == null || n == values.length) {
        values = values == null ? new long[16] : Arrays.copyOf(values, n * 2);
        durations.put(k, values);
      }
      values[n] = r.durationNanos();
      sizes.put(k, n + 1);
    }

    HttpSummary build(long observedNanos) {
      List<Group> groups = new ArrayList<>();
      durations.forEach(
          (k, values) -> {
            int n = sizes.get(k);
            double[] ms = new double[n];
            for (int i = 0; i < n; i++) {
              ms[i] = values[i] / 1e6;
            }
            Arrays.sort(ms);
            groups.add(
                new Group(
                    k.host(),
                    k.status(),
                    n,
                    GcSummary.percentile(ms, 50),
                    GcSummary.percentile(ms, 95),
                    ms[n - 1]));
          });
      return new HttpSummary(requests, failed, redirects, observedNanos, groups);
    }
  }
}
