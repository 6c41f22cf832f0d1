package dev.clrscope.monitor.http;

import java.time.Instant;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * One HttpClient request, from its RequestStart to its RequestStop (System.Net.Http).
 *
 * @param time when it started (RequestStart's wall-clock time)
 * @param relativeNanos the same, from the start of the trace
 * @param host the host and port asked for ({@code example.com:443})
 * @param url the URL asked for, its query string redacted to {@code ?*} unless asked otherwise
 * @param status the final response's status code, or {@code null} when none came (a failure)
 * @param durationNanos from RequestStart to RequestStop
 * @param timeToFirstByteNanos from RequestStart to the first response's first bytes
 *     (ResponseHeadersStart), or {@code null} when no response came
 * @param phases the time of each phase seen, in nanoseconds (a phase not seen is absent: a request
 *     on a pooled connection has no DNS or connect)
 * @param version the HTTP version of the connection it went over ({@code 1.1}, {@code 2.0}), or the
 *     version asked for when the connection was not seen being established
 * @param connectionId the connection it went over (the pool's id), or {@code null}
 * @param redirects the redirects followed, in order
 * @param failure RequestFailed's exception message, or {@code null}
 */
public record HttpRecord(
    Instant time,
    long relativeNanos,
    String host,
    String url,
    Integer status,
    long durationNanos,
    Long timeToFirstByteNanos,
    Map<HttpPhase, Long> phases,
    String version,
    Long connectionId,
    List<Redirect> redirects,
    String failure) {

  /**
   * One redirect: the response that asked for it and where it led.
   *
   * @param status the redirecting response's status code (ResponseHeadersStop before the Redirect
   *     event), or {@code null} if not seen
   * @param from the URL redirected from
   * @param to the Redirect event's redirectUri (redacted as the URL is)
   */
  public record Redirect(Integer status, String from, String to) {}

  /** Copies the collections. */
  public HttpRecord {
    phases =
        phases.isEmpty()
            ? Map.of()
            : Collections.unmodifiableMap(new EnumMap<HttpPhase, Long>(phases));
    redirects = List.copyOf(redirects);
  }

  /** The duration in milliseconds. */
  public double durationMillis() {
    return durationNanos / 1e6;
  }

  /** The time to the first byte in milliseconds, or {@code null} if no response came. */
  public Double timeToFirstByteMillis() {
    return timeToFirstByteNanos == null ? null : timeToFirstByteNanos / 1e6;
  }

  /**
   * What no phase accounts for, in milliseconds: the duration less the phases that follow one
   * another (waiting for a connection, or when it was not waited for its DNS, connect and TLS;
   * sending; the server; the response's headers and content), so that they add up to the duration.
   * The client's own work between them, and a redirect's hops, are most of it.
   */
  public double otherMillis() {
    long accounted = 0;
    if (phases.containsKey(HttpPhase.QUEUE)) {
      accounted += phases.get(HttpPhase.QUEUE);
    } else {
      for (HttpPhase p : List.of(HttpPhase.DNS, HttpPhase.CONNECT, HttpPhase.TLS)) {
        accounted += phases.getOrDefault(p, 0L);
      }
    }
    for (HttpPhase p :
        List.of(
            HttpPhase.REQUEST,
            HttpPhase.SERVER,
            HttpPhase.RESPONSE_HEADERS,
            HttpPhase.RESPONSE_CONTENT)) {
      accounted += phases.getOrDefault(p, 0L);
    }
    return Math.max(0, durationNanos - accounted) / 1e6;
  }

  /** A phase's time in milliseconds, or {@code null} if it was not seen. */
  public Double phaseMillis(HttpPhase phase) {
    Long nanos = phases.get(phase);
    return nanos == null ? null : nanos / 1e6;
  }

  /** {@code failed} for a request without a response, else its status code. */
  public String outcome() {
    return status == null ? "failed" : status.toString();
  }
}
