package dev.clrscope.monitor.counters;

/** Which .NET mechanism publishes a provider's counters. */
public enum CounterSource {
  /**
   * A {@code System.Diagnostics.Metrics.Meter}, read through the System.Diagnostics.Metrics
   * provider.
   */
  METER,
  /** An EventSource's EventCounters, enabled with {@code EventCounterIntervalSec}. */
  EVENT_COUNTERS,
  /** Either: the name did not say ({@code Prov} rather than {@code EventCounters\Prov}). */
  ANY
}
