package dev.clrscope.monitor.counters;

import java.time.Instant;

/**
 * MetricsEventSource finished publishing one interval's values (its CollectionStop event).
 *
 * @param time when the event was written
 * @param intervalStart the start of the interval the values cover
 * @param intervalEnd its end
 */
public record CollectionEnd(Instant time, Instant intervalStart, Instant intervalEnd)
    implements CounterUpdate {}
