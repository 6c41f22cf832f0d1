package dev.clrscope.monitor.counters;

/**
 * An instrument a process publishes, as it announced itself (BeginInstrumentReporting,
 * InstrumentPublished) or as its first EventCounters payload described it.
 *
 * @param provider the Meter or EventSource name
 * @param source METER or EVENT_COUNTERS
 * @param name the instrument's name
 * @param displayName the EventCounter's display name; the name for Meters
 * @param type its kind
 * @param unit its unit ({@code By}, {@code ms}, {@code {request}}), or empty
 * @param description what it measures, or empty
 */
public record Instrument(
    String provider,
    CounterSource source,
    String name,
    String displayName,
    InstrumentType type,
    String unit,
    String description)
    implements CounterUpdate {}
