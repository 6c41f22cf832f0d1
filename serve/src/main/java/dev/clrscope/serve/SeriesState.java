package dev.clrscope.serve;

import dev.clrscope.monitor.counters.CounterSource;
import dev.clrscope.monitor.counters.InstrumentType;
import dev.clrscope.monitor.counters.Measurement;
import java.util.Map;

/**
 * One time series of one process as Prometheus exposes it: what the target sends per interval
 * (increases, a histogram's count and sum) added up since the watch began, since Prometheus
 * counters and summaries are cumulative; levels as the target last sent them.
 *
 * @param provider the Meter or EventSource
 * @param name the instrument's name
 * @param unit its unit, or empty
 * @param type its kind
 * @param tags the series' tags
 * @param value the level (gauges), or the total (counters), or null while unknown
 * @param count a histogram's cumulative count
 * @param sum a histogram's cumulative sum
 * @param quantiles a histogram's latest quantiles
 */
public record SeriesState(
    String provider,
    String name,
    String unit,
    InstrumentType type,
    Map<String, String> tags,
    Double value,
    long count,
    double sum,
    Map<Double, Double> quantiles) {

  /** Copies the maps. */
  public SeriesState {
    tags = Map.copyOf(tags);
    quantiles = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(quantiles));
  }

  /** Whether Prometheus sees it as a counter (a total that only grows). */
  public boolean isCounter() {
    return type.isRate();
  }

  /**
   * The state after {@code m}, the next measurement of this series ({@code before} null for the
   * first), of an instrument of {@code type} (its announced kind, or the measurement's own).
   */
  static SeriesState next(SeriesState before, Measurement m, InstrumentType type) {
    Double value;
    Double previous = before == null ? null : before.value();
    if (type.isRate()) {
      // Meters' counters carry their running total where the runtime sends it (.NET 8+); else the
      // increases are added up here, from the first seen.
      if (m.value() != null && m.source() == CounterSource.METER) {
        value = m.value();
      } else if (m.rate() != null) {
        value = (previous == null ? 0 : previous) + m.rate();
      } else {
        value = previous;
      }
    } else if (type == InstrumentType.HISTOGRAM) {
      value = null;
    } else {
      value = m.value() != null ? m.value() : m.primary();
    }
    long count = (before == null ? 0 : before.count()) + (m.count() == null ? 0 : m.count());
    double sum = (before == null ? 0 : before.sum()) + (m.sum() == null ? 0 : m.sum());
    return new SeriesState(
        m.provider(),
        m.name(),
        m.unit() == null ? "" : m.unit(),
        type,
        m.tags(),
        value,
        count,
        sum,
        m.quantiles());
  }
}
