package dev.clrscope.monitor.counters;

/**
 * What one counter event says: a value ({@link Measurement}), an instrument that will report
 * ({@link Instrument}), a problem the publishing side reports ({@link SessionProblem}), or the end
 * of one Meter collection ({@link CollectionEnd}).
 */
public sealed interface CounterUpdate
    permits Measurement, Instrument, SessionProblem, CollectionEnd {}
