package dev.clrscope.monitor.exceptions;

import dev.clrscope.symbols.Frame;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a session saw of exceptions.
 *
 * @param exceptions how many were thrown (of the types asked for)
 * @param uncaught how many of them no catch handler on their thread was seen to take
 * @param unhandled how many of those were in flight when the target exited (see {@link
 *     ExceptionRecord#unhandled})
 * @param observedNanos how long the session watched
 * @param byType count per exception type, most first
 * @param byThrowSite count per type and throw site, most first
 */
public record ExceptionSummary(
    long exceptions,
    long uncaught,
    long unhandled,
    long observedNanos,
    Map<String, Long> byType,
    List<SiteCount> byThrowSite) {

  /**
   * Exceptions of one type thrown from one place.
   *
   * @param type the exception type
   * @param throwSite the method that threw them, and the line where known
   * @param count how many
   */
  public record SiteCount(String type, Frame throwSite, long count) {}

  /** Copies the collections. */
  public ExceptionSummary {
    byType = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(byType));
    byThrowSite = List.copyOf(byThrowSite);
  }

  /** Exceptions per second over the time watched, or {@code null} if no time passed. */
  public Double perSecond() {
    return observedNanos <= 0 ? null : exceptions / (observedNanos / 1e9);
  }

  /** {@code counts} ordered by count, most first, then by key. */
  static Map<String, Long> descending(Map<String, Long> counts) {
    List<Map.Entry<String, Long>> entries = new ArrayList<>(counts.entrySet());
    entries.sort(
        Map.Entry.<String, Long>comparingByValue()
            .reversed()
            .thenComparing(Map.Entry.comparingByKey()));
    Map<String, Long> sorted = new LinkedHashMap<>();
    entries.forEach(e -> sorted.put(e.getKey(), e.getValue()));
    return sorted;
  }
}
