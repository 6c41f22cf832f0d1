package dev.clrscope.monitor.counters;

import java.util.Locale;

/** The kinds of instrument a Meter or an EventSource publishes. */
public enum InstrumentType {
  /** {@code Counter<T>}: only grows; reported as its increase over each interval. */
  COUNTER("counter", true),
  /** {@code ObservableCounter<T>}: a callback returns the total; reported as its increase. */
  OBSERVABLE_COUNTER("observable-counter", true),
  /** {@code UpDownCounter<T>}: goes up and down; reported as its current value and its change. */
  UP_DOWN_COUNTER("up-down-counter", false),
  /** {@code ObservableUpDownCounter<T>}. */
  OBSERVABLE_UP_DOWN_COUNTER("observable-up-down-counter", false),
  /** {@code Gauge<T>}: the last value recorded. */
  GAUGE("gauge", false),
  /** {@code ObservableGauge<T>}: the value its callback returns. */
  OBSERVABLE_GAUGE("observable-gauge", false),
  /** {@code Histogram<T>}: reported as percentiles, count and sum over each interval. */
  HISTOGRAM("histogram", false),
  /**
   * An EventSource {@code EventCounter} or {@code PollingCounter}: mean, min, max of the interval.
   */
  EVENT_COUNTER("mean", false),
  /** {@code IncrementingEventCounter} or {@code IncrementingPollingCounter}: the increment. */
  INCREMENTING_EVENT_COUNTER("sum", true),
  /** Announced with a type this version does not know. */
  UNKNOWN("unknown", false);

  private final String label;
  private final boolean rate;

  InstrumentType(String label, boolean rate) {
    this.label = label;
    this.rate = rate;
  }

  /** The lower-case name used in output: {@code counter}, {@code gauge}, {@code mean}, ... */
  public String label() {
    return label;
  }

  /** Whether its main value is an increase over the interval (a rate) rather than a level. */
  public boolean isRate() {
    return rate;
  }

  /**
   * The type MetricsEventSource names, such as {@code Counter`1} or {@code ObservableGauge`1} (the
   * .NET generic type name of the instrument).
   */
  public static InstrumentType ofMeterTypeName(String typeName) {
    if (typeName == null) {
      return UNKNOWN;
    }
    int tick = typeName.indexOf('`');
    String base = (tick >= 0 ? typeName.substring(0, tick) : typeName).toLowerCase(Locale.ROOT);
    return switch (base) {
      case "counter" -> COUNTER;
      case "observablecounter" -> OBSERVABLE_COUNTER;
      case "updowncounter" -> UP_DOWN_COUNTER;
      case "observableupdowncounter" -> OBSERVABLE_UP_DOWN_COUNTER;
      case "gauge" -> GAUGE;
      case "observablegauge" -> OBSERVABLE_GAUGE;
      case "histogram" -> HISTOGRAM;
      default -> UNKNOWN;
    };
  }
}
