package dev.clrscope.serve;

import java.util.List;

/**
 * One process's series at one moment, as {@code /metrics} shows them.
 *
 * @param process who
 * @param series its series
 */
public record ProcessMetrics(ProcessFacts process, List<SeriesState> series) {
  /** Copies the list. */
  public ProcessMetrics {
    series = List.copyOf(series);
  }
}
