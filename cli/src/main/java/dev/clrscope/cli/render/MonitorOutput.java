package dev.clrscope.cli.render;

import java.util.function.BiFunction;
import java.util.function.ToLongFunction;

/**
 * What a live monitor prints, in the format chosen: its records as they come, then its summary,
 * whose first line says how long it watched and why it stopped ({@link Watched}).
 *
 * @param <R> the records
 * @param <S> the summary
 */
public final class MonitorOutput<R, S> {
  private final Renderer.RecordSink<R> records;
  private final BiFunction<S, Watched, Report> summary;
  private final ToLongFunction<S> observedNanos;

  /**
   * An output.
   *
   * @param summary the summary's report, given how long it watched
   * @param observedNanos how long a summary says it watched
   */
  public MonitorOutput(
      Renderer renderer,
      Renderer.Stream<R> stream,
      BiFunction<S, Watched, Report> summary,
      ToLongFunction<S> observedNanos) {
    this.records = renderer.records(stream);
    this.summary = summary;
    this.observedNanos = observedNanos;
  }

  /** Prints the header now, so a watcher sees the columns before the first record. */
  public void header() {
    records.start();
  }

  /** Prints one record. */
  public void write(R record) {
    records.write(record);
  }

  /** Ends the stream with the summary; {@code stoppedBecause} is {@code null} for a saved file. */
  public void summary(S s, String stoppedBecause) {
    records.finish(summary.apply(s, new Watched(observedNanos.applyAsLong(s), stoppedBecause)));
  }
}
