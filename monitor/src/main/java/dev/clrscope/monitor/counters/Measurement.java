package dev.clrscope.monitor.counters;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * One value of one time series (an instrument with one set of tag values) for one interval.
 *
 * <p>Which numbers are present depends on the type: counters and incrementing EventCounters have
 * {@code rate} (the increase over the interval) and, for Meters, {@code value} (the running total);
 * up-down counters have {@code value} (the level) and {@code rate} (its change); gauges and mean
 * EventCounters have {@code value} (and {@code min}/{@code max}/{@code count} for EventCounters);
 * histograms have {@code quantiles}, {@code count} and {@code sum}. A number the target left empty
 * (a first interval has no rate yet) is {@code null}; the target may send NaN or infinities.
 *
 * @param time when the target published it (from the event, not this tool's clock)
 * @param provider the Meter or EventSource name
 * @param source METER or EVENT_COUNTERS
 * @param name the instrument's name
 * @param displayName the EventCounter's display name; the name for Meters
 * @param unit the unit, or empty
 * @param type the instrument's kind
 * @param tags the time series' tags, in the order the target gave them
 * @param rate the increase over the interval, or null
 * @param value the level or running total, or null
 * @param min an EventCounter's minimum in the interval, or null
 * @param max an EventCounter's maximum in the interval, or null
 * @param count how many values an EventCounter or histogram received in the interval, or null
 * @param sum a histogram's sum over the interval, or null
 * @param quantiles a histogram's quantiles (0.5 → p50), ascending; empty otherwise
 * @param intervalSeconds the interval's length when the target says it (EventCounters), or null
 */
public record Measurement(
    Instant time,
    String provider,
    CounterSource source,
    String name,
    String displayName,
    String unit,
    InstrumentType type,
    Map<String, String> tags,
    Double rate,
    Double value,
    Double min,
    Double max,
    Long count,
    Double sum,
    Map<Double, Double> quantiles,
    Double intervalSeconds)
    implements CounterUpdate {

  /** Copies the maps. */
  public Measurement {
    Objects.requireNonNull(time, "time");
    tags = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(tags));
    quantiles = java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(quantiles));
  }

  /**
   * The number a one-column view shows: the rate for rate types, else the value; for a histogram
   * its median (p50). May be null.
   */
  public Double primary() {
    if (type == InstrumentType.HISTOGRAM) {
      return quantiles.get(0.5);
    }
    return type.isRate() ? rate : value;
  }

  /** Identifies the time series: provider, source, name and tags. */
  public SeriesKey key() {
    return new SeriesKey(provider, source, name, tags);
  }

  /**
   * A time series' identity.
   *
   * @param provider the Meter or EventSource name
   * @param source METER or EVENT_COUNTERS
   * @param name the instrument's name
   * @param tags its tag values
   */
  public record SeriesKey(
      String provider, CounterSource source, String name, Map<String, String> tags) {}
}
